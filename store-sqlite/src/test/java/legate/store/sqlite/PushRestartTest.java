package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.push.AllowedHosts;
import legate.a2a.server.push.PushPolicy;
import legate.a2a.server.push.PushSettings;
import legate.testsupport.Cleanup;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pending push deliveries survive a restart (README "Push notifications"): an agent whose webhook
 * is down stops with every event of a finished task unsent; the next agent on the same SQLite file
 * delivers them, in order, once the receiver is up.
 */
class PushRestartTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Three steps and COMPLETED, at once. */
    private static final AgentExecutor STEPS = new AgentExecutor() {
        @Override
        public void execute(RequestContext ctx, EventSink events) {
            events.task(ctx.initialTask());
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("step 1"));
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("step 2"));
            events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
        }
    };

    private AgentServer agent(int webhookPort) {
        PushSettings push = PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1:" + webhookPort))
                .withPolicy(PushPolicy.DEFAULT.withLimits(1000, Duration.ofMinutes(5), 100)
                        .withBackoff(Duration.ofMillis(20), Duration.ofMillis(100)));
        return AgentServer.create(ServerConfig.loopback(0).withPush(push),
                p -> LegateCards.jsonRpc("pusher", "d", "http://127.0.0.1:" + p + "/").build(), STEPS,
                SqliteTaskStore.open(dir), Clock.systemUTC());
    }

    @Test
    void deliveriesPendingAtAStopAreMadeByTheNextStartInOrder() throws Exception {
        int port;
        try (ServerSocket reserved = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = reserved.getLocalPort();
        }
        AgentServer first = cleanup.register(agent(port));
        int a2a = first.start();
        String send = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":{\"messageId\":\"m1\","
                + "\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"go\"}]},\"configuration\":{\"taskPushNotificationConfig\":"
                + "{\"url\":\"http://127.0.0.1:" + port + "/hook\"}}}}";
        String answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a2a + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(send)).build(), HttpResponse.BodyHandlers.ofString()).body();
        // The task finished with its webhook down: every one of its events is pending at the stop.
        assertThat(answer).contains("\"state\":\"TASK_STATE_COMPLETED\"");
        first.stop();

        BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 10);
        receiver.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        receiver.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                bodies.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try {
            cleanup.start("the restarted agent", agent(port), AgentServer::start, AgentServer::openStreams);
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String b = bodies.poll(10, TimeUnit.SECONDS);
                assertThat(b).as("delivery " + (i + 1)).isNotNull();
                got.add(b);
            }
            assertThat(got.get(0)).startsWith("{\"task\":");
            assertThat(got.get(1)).contains("step 1");
            assertThat(got.get(2)).contains("step 2");
            assertThat(got.get(3)).contains("TASK_STATE_COMPLETED");
            assertThat(bodies.poll(300, TimeUnit.MILLISECONDS)).isNull();
        } finally {
            receiver.stop(0);
        }
    }
}
