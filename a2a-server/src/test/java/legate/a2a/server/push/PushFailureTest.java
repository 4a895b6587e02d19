package legate.a2a.server.push;

import static legate.a2a.server.push.PushDeliveryTest.WAIT;
import static legate.a2a.server.push.PushDeliveryTest.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a failing webhook costs (README "Push notifications", the retry rules): a 500 forever is
 * tried PUSH_MAX_ATTEMPTS times with a growing wait, then given up and counted; 410 Gone removes
 * the configuration; a redirect is a failure, never followed.
 */
class PushFailureTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private static PushSettings settings(WebhookReceiver r, int attempts, Duration firstBackoff) {
        return PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1:" + r.port()))
                .withPolicy(PushPolicy.DEFAULT.withLimits(attempts, Duration.ofMinutes(1), 100)
                        .withBackoff(firstBackoff, Duration.ofSeconds(1)));
    }

    private static double counter(PushAgent agent, String outcome) {
        String line = agent.server.metrics().scrape().lines()
                .filter(l -> l.startsWith("legate_push_deliveries_total{outcome=\"" + outcome + "\"}"))
                .findFirst().orElseThrow();
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    @Test
    void aWebhookAnswering500IsTriedMaxAttemptsTimesWithGrowingWaitsThenGivenUpAndCounted() throws Exception {
        WebhookReceiver r = cleanup.register(new WebhookReceiver().answering(n -> 500));
        PushAgent agent = new PushAgent(cleanup, settings(r, 4, Duration.ofMillis(40)));
        agent.send("steps 0", "{\"url\":\"" + r.url("/hook") + "\"}", false);

        // Three events (the Task, the artifact, COMPLETED), four attempts each, one event after the other.
        List<WebhookReceiver.Delivery> got = r.next(12, WAIT);
        assertThat(kinds(got)).containsExactly("task", "task", "task", "task", "artifact a1", "artifact a1",
                "artifact a1", "artifact a1", "COMPLETED done", "COMPLETED done", "COMPLETED done", "COMPLETED done");
        assertThat(r.next(Duration.ofMillis(300))).as("no fifth attempt").isNull();
        // Exponential backoff with equal jitter: each wait is at least half of 40 ms, 80 ms, 160 ms.
        assertThat(Duration.between(got.get(0).at(), got.get(1).at())).isGreaterThanOrEqualTo(Duration.ofMillis(20));
        assertThat(Duration.between(got.get(1).at(), got.get(2).at())).isGreaterThanOrEqualTo(Duration.ofMillis(40));
        assertThat(Duration.between(got.get(2).at(), got.get(3).at())).isGreaterThanOrEqualTo(Duration.ofMillis(80));
        // The failure record: counted once per event given up, and each failed attempt before as a retry.
        assertThat(counter(agent, "failed")).isEqualTo(3.0);
        assertThat(counter(agent, "retried")).isEqualTo(9.0);
        assertThat(counter(agent, "delivered")).isZero();
    }

    @Test
    void goneEndsTheConfiguration() throws Exception {
        WebhookReceiver r = cleanup.register(new WebhookReceiver().answering(n -> 410));
        PushAgent agent = new PushAgent(cleanup, settings(r, 4, Duration.ofMillis(10)));
        String taskId = PushAgent.taskId(agent.send("gate 2", "{\"id\":\"w1\",\"url\":\"" + r.url("/hook") + "\"}",
                true));
        assertThat(kinds(r.next(1, WAIT))).containsExactly("task");
        agent.release(2);
        assertThat(r.next(Duration.ofMillis(500))).as("nothing after 410 Gone").isNull();
        // PEER (@a2a-js/sdk 1.2.0): an empty list prints as {}; the configuration is gone for Get too.
        assertThat(agent.call("ListTaskPushNotificationConfigs", "{\"taskId\":\"" + taskId + "\"}").get("result")
                .toString()).isEqualTo("{}");
        assertThat(agent.call("GetTaskPushNotificationConfig", "{\"taskId\":\"" + taskId + "\",\"id\":\"w1\"}")
                .get("error").get("code").asInt()).isEqualTo(-32001);
    }

    @Test
    void aRedirectIsNotFollowed() throws Exception {
        WebhookReceiver target = cleanup.register(new WebhookReceiver());
        WebhookReceiver r = cleanup.register(new WebhookReceiver().answering(n -> 307).redirectingTo(target.url("/x")));
        PushAgent agent = new PushAgent(cleanup, PushDeliveryTest.allowing(r, target)
                .withPolicy(PushPolicy.DEFAULT.withLimits(2, Duration.ofMinutes(1), 100)
                        .withBackoff(Duration.ofMillis(5), Duration.ofMillis(10))));
        agent.send("steps 0", "{\"url\":\"" + r.url("/hook") + "\"}", false);
        assertThat(r.next(6, WAIT)).hasSize(6);
        assertThat(target.next(Duration.ofMillis(300))).as("the redirect's target is never reached").isNull();
        assertThat(target.requests()).isZero();
    }

    @Test
    void aDeletedConfigurationGetsNothingMore() throws Exception {
        WebhookReceiver r = cleanup.register(new WebhookReceiver());
        PushAgent agent = new PushAgent(cleanup, settings(r, 4, Duration.ofMillis(10)));
        String taskId = PushAgent.taskId(agent.send("gate 2", "{\"id\":\"w1\",\"url\":\"" + r.url("/hook") + "\"}",
                true));
        assertThat(kinds(r.next(1, WAIT))).containsExactly("task");
        JsonNode deleted = agent.call("DeleteTaskPushNotificationConfig", "{\"taskId\":\"" + taskId + "\",\"id\":\"w1\"}");
        // PROTOCOL (A2A §9.4): Delete answers null.
        assertThat(deleted.has("result")).isTrue();
        assertThat(deleted.get("result").isNull()).isTrue();
        agent.release(2);
        assertThat(r.next(Duration.ofMillis(500))).isNull();
    }

    @Test
    void aNameThatResolvesToAPrivateAddressByDeliveryTimeIsNeverConnectedTo() throws Exception {
        // DNS rebinding, PROTOCOL (A2A §13.2): the name is public when registered, loopback when the
        // delivery is made. The resolver seam answers for the guard; the HTTP client would reach the
        // real localhost, where a socket counts every connection made to it.
        AtomicReference<String> answer = new AtomicReference<>("93.184.216.34");
        AtomicInteger lookups = new AtomicInteger();
        HostResolver rebinding = host -> {
            lookups.incrementAndGet();
            return List.of(InetAddress.getByName(answer.get()));
        };
        ServerSocket localhost = cleanup.register(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        AtomicInteger connections = new AtomicInteger();
        Thread.ofVirtual().start(() -> {
            while (!localhost.isClosed()) {
                try (Socket s = localhost.accept()) {
                    connections.incrementAndGet();
                } catch (IOException e) {
                    return;
                }
            }
        });
        PushAgent agent = new PushAgent(cleanup, PushSettings.DEFAULT.withResolver(rebinding)
                .withPolicy(PushPolicy.DEFAULT.withLimits(2, Duration.ofMinutes(1), 100)
                        .withBackoff(Duration.ofMillis(5), Duration.ofMillis(10))));
        String taskId = PushAgent.taskId(agent.send("ask", null, false));
        String hook = "https://localhost:" + localhost.getLocalPort() + "/hook";
        JsonNode created = agent.call("CreateTaskPushNotificationConfig", "{\"taskId\":\"" + taskId
                + "\",\"url\":\"" + hook + "\"}");
        assertThat(created.has("result")).as(created.toString()).isTrue();
        int atRegistration = lookups.get();

        answer.set("127.0.0.1");
        JsonNode refused = agent.call("CreateTaskPushNotificationConfig", "{\"taskId\":\"" + taskId
                + "\",\"url\":\"" + hook + "2\"}");
        assertThat(refused.get("error").get("message").asText()).contains("\"public address\"").contains("loopback");
        JsonNode reply = agent.call("SendMessage", "{\"message\":{\"messageId\":\"m-r\",\"role\":\"ROLE_USER\","
                + "\"taskId\":\"" + taskId + "\",\"parts\":[{\"text\":\"steps 0\"}]}}");
        assertThat(reply.get("result").get("task").get("status").get("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        // The continuation's three events, two attempts each, every one refused by the re-check.
        long until = System.nanoTime() + WAIT.toNanos();
        while (counter(agent, "failed") < 3 && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertThat(counter(agent, "failed")).isEqualTo(3.0);
        assertThat(lookups.get()).as("looked up again before every attempt").isGreaterThanOrEqualTo(atRegistration + 1 + 6);
        assertThat(connections.get()).as("connections to the rebound address").isZero();
    }
}
