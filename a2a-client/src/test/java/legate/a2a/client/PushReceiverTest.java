package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.push.AllowedHosts;
import legate.a2a.server.push.PushSettings;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client's push methods against Legate's own server, and {@link PushReceiver} checking what
 * the agent sends (README "Push notifications"): every notification of a Revisor task verified
 * against the agent's JWKS; a forged or unsigned POST refused.
 */
class PushReceiverTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private final BlockingQueue<PushReceiver.Outcome> outcomes = new LinkedBlockingQueue<>();

    @Test
    void theAgentsNotificationsVerifyAndTheClientManagesTheConfigurations() throws Exception {
        // The agent's port is known only once it listens; the receiver loads its JWKS lazily, then.
        AtomicReference<String> agentUrl = new AtomicReference<>();
        PushReceiver receiver = cleanup.register(new PushReceiver(new InetSocketAddress("127.0.0.1", 0),
                () -> agentUrl.get() == null ? List.of()
                        : TrustedKeys.load(agentUrl.get() + "/.well-known/jwks.json", null, Duration.ofSeconds(5)),
                "tok-1", Clock.systemUTC(), outcomes::add));
        int hookPort = receiver.start();
        AgentServer server = AgentServer.create(ServerConfig.loopback(0)
                        .withPush(PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1:" + hookPort))),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        agentUrl.set("http://127.0.0.1:" + cleanup.start("Revisor", server, AgentServer::start, AgentServer::openStreams));
        A2aClient client = cleanup.register(A2aClient.connect(URI.create(agentUrl.get())));
        assertThat(client.card().getCapabilities().getPushNotifications()).isTrue();

        String hook = "http://127.0.0.1:" + hookPort + "/hook";
        String taskId = client.send(SendMessageRequest.newBuilder().setMessage(UserMessage.text("Count these words."))
                .setConfiguration(SendMessageConfiguration.newBuilder().setTaskPushNotificationConfig(
                        TaskPushNotificationConfig.newBuilder().setId("w1").setUrl(hook).setToken("tok-1")))
                .build()).getTask().getId();

        List<String> kinds = new ArrayList<>();
        while (!kinds.contains("status:TASK_STATE_COMPLETED")) {
            PushReceiver.Outcome o = outcomes.poll(10, TimeUnit.SECONDS);
            assertThat(o).as("a notification after " + kinds + ": " + o).isInstanceOf(PushReceiver.Outcome.Accepted.class);
            PushReceiver.Outcome.Accepted a = (PushReceiver.Outcome.Accepted) o;
            assertThat(a.taskId()).isEqualTo(taskId);
            kinds.add(a.event().hasTask() ? "task" : a.event().hasArtifactUpdate() ? "artifact"
                    : "status:" + a.event().getStatusUpdate().getStatus().getState());
        }
        assertThat(kinds).startsWith("task").contains("artifact").endsWith("status:" + TaskState.TASK_STATE_COMPLETED);

        assertThat(client.listPushConfigs(taskId, "").getConfigsList()).extracting(TaskPushNotificationConfig::getUrl)
                .containsExactly(hook);
        assertThat(client.getPushConfig(taskId, "w1").getToken()).isEqualTo("tok-1");
        TaskPushNotificationConfig second = client.createPushConfig(TaskPushNotificationConfig.newBuilder()
                .setTaskId(taskId).setUrl(hook + "2").build());
        assertThat(second.getId()).isNotEmpty();
        client.deletePushConfig(taskId, "w1");
        client.deletePushConfig(taskId, second.getId());
        assertThat(client.listPushConfigs(taskId, "").getConfigsCount()).isZero();
    }

    @Test
    void anUnsignedOrForgedPostIsRefused() throws Exception {
        PushReceiver receiver = cleanup.register(new PushReceiver(new InetSocketAddress("127.0.0.1", 0), List::of,
                null, Clock.systemUTC(), outcomes::add));
        URI url = URI.create("http://127.0.0.1:" + receiver.start() + "/");
        HttpClient http = cleanup.register(HttpClient.newHttpClient());
        String body = "{\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}";
        HttpResponse<Void> unsigned = http.send(HttpRequest.newBuilder(url).POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.discarding());
        assertThat(unsigned.statusCode()).isEqualTo(401);
        assertThat(((PushReceiver.Outcome.Refused) outcomes.take()).reason()).contains("not signed");
        HttpResponse<Void> forged = http.send(HttpRequest.newBuilder(url).header(PushReceiver.SIGNATURE_HEADER,
                "eyJhbGciOiJub25lIn0.eyJ0YXNrSWQiOiJ0In0.").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding());
        assertThat(forged.statusCode()).isEqualTo(401);
        assertThat(outcomes.take()).isInstanceOf(PushReceiver.Outcome.Refused.class);
    }
}
