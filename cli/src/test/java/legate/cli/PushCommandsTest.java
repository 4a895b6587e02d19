package legate.cli;

import static legate.cli.ClientCommandTest.legate;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.push.AllowedHosts;
import legate.a2a.server.push.PushSettings;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The push commands end to end (README "Push notifications"): {@code legate client ask --push}
 * registers a webhook with the message, {@code legate push-receiver} verifies and prints every
 * notification of the task, and {@code legate client push list|get|delete} manage the webhook.
 */
class PushCommandsTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void askWithPushReachesTheReceiverAndTheWebhookIsManagedFromTheClient() throws Exception {
        int hookPort;
        try (ServerSocket reserved = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            hookPort = reserved.getLocalPort();
        }
        AgentServer revisor = AgentServer.create(ServerConfig.loopback(0)
                        .withPush(PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1:" + hookPort))),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        String url = "http://127.0.0.1:" + cleanup.start("Revisor", revisor, AgentServer::start, AgentServer::openStreams);
        String hook = "http://127.0.0.1:" + hookPort + "/";
        // Revisor's turn: the Task, WORKING twice, the artifact, COMPLETED.
        // On a thread of its own, ended with the test: on the common ForkJoinPool (one thread on two
        // cores) a receiver left waiting by a failed test held that pool for every later test.
        FutureTask<ClientCommandTest.Run> receiver = new FutureTask<>(() -> legate(url,
                "push-receiver", "--port", Integer.toString(hookPort), "--token", "tok-7", "--count", "5"));
        Thread receiving = Thread.ofVirtual().name("push-receiver").start(receiver);
        cleanup.register((AutoCloseable) () -> {
            receiving.interrupt();
            receiving.join(Duration.ofSeconds(10));
        });
        // Until the receiver listens, the agent's first attempts fail and are retried: nothing is lost.
        ClientCommandTest.Run ask = legate(url, "client", "ask", "--push", hook, "--push-token", "tok-7",
                "Count these words.");
        assertThat(ask.exit()).as(ask.err()).isZero();

        ClientCommandTest.Run received = receiver.get(30, TimeUnit.SECONDS);
        assertThat(received.exit()).as(received.err()).isZero();
        assertThat(received.err()).doesNotContain("refused");
        List<String> lines = received.lines();
        assertThat(lines).hasSize(5);
        Matcher first = Pattern.compile("^task (\\S+) #1 task submitted$").matcher(lines.get(0));
        assertThat(first.matches()).as(lines.get(0)).isTrue();
        String taskId = first.group(1);
        assertThat(lines.get(3)).startsWith("task " + taskId + " #4 artifact ");
        assertThat(lines.get(4)).startsWith("task " + taskId + " #5 status completed");

        ClientCommandTest.Run list = legate(url, "client", "push", "list", taskId);
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).contains(hook).contains("token set").doesNotContain("tok-7")
                .contains("1 push configuration(s)");
        String configId = list.lines().get(0).strip().split(" +")[0];
        ClientCommandTest.Run get = legate(url, "client", "--json", "push", "get", taskId, configId);
        assertThat(get.out()).contains("\"url\":\"" + hook + "\"");
        ClientCommandTest.Run delete = legate(url, "client", "push", "delete", taskId);
        assertThat(delete.exit()).as(delete.err()).isZero();
        assertThat(legate(url, "client", "push", "list", taskId).out()).contains("0 push configuration(s)");
    }
}
