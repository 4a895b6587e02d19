package legate.a2a.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Push deliveries as a receiver on loopback sees them (README "Push notifications"): every event of
 * the task after the registration, in order, each signed with a JWT that verifies against the
 * agent's JWKS, with the configuration's credentials; a slow webhook holds up no other.
 */
class PushDeliveryTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    static final Duration WAIT = Duration.ofSeconds(10);

    static PushSettings allowing(WebhookReceiver... receivers) {
        StringBuilder hosts = new StringBuilder();
        for (WebhookReceiver r : receivers) {
            hosts.append(hosts.isEmpty() ? "" : ",").append("127.0.0.1:").append(r.port());
        }
        return PushSettings.DEFAULT.withAllowed(AllowedHosts.parse(hosts.toString()))
                .withPolicy(PushPolicy.DEFAULT.withBackoff(Duration.ofMillis(20), Duration.ofMillis(200)));
    }

    /** Which StreamResponse member each delivery carried, with the status state or text that tells them apart. */
    static List<String> kinds(List<WebhookReceiver.Delivery> deliveries) throws Exception {
        return deliveries.stream().map(d -> {
            try {
                JsonNode j = d.json();
                if (j.has("task")) {
                    return "task";
                }
                if (j.has("artifactUpdate")) {
                    return "artifact " + j.get("artifactUpdate").get("artifact").get("artifactId").asText();
                }
                JsonNode status = j.get("statusUpdate").get("status");
                return status.get("state").asText().replace("TASK_STATE_", "") + " "
                        + status.get("message").get("parts").get(0).get("text").asText();
            } catch (Exception e) {
                return "unreadable: " + e;
            }
        }).toList();
    }

    static final List<String> THREE_STEPS = List.of("task", "WORKING step 1", "WORKING step 2", "WORKING step 3",
            "artifact a1", "COMPLETED done");

    @Test
    void everyEventArrivesInOrderSignedAndWithTheConfigurationsCredentials() throws Exception {
        WebhookReceiver r = cleanup.register(new WebhookReceiver());
        PushAgent agent = new PushAgent(cleanup, allowing(r));
        String url = r.url("/hook?k=1");
        String taskId = PushAgent.taskId(agent.send("steps 3", "{\"url\":\"" + url + "\",\"token\":\"tok-1\","
                + "\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"cred-1\"}}", false));

        List<WebhookReceiver.Delivery> got = r.next(6, WAIT);
        // PROTOCOL (A2A §4.3): every event, the Task first, in the order of the task's log.
        assertThat(kinds(got)).containsExactlyElementsOf(THREE_STEPS);
        assertThat(r.next(Duration.ofMillis(300))).as("nothing after the terminal update").isNull();

        // The signature checked as any receiver would: the JWKS from the agent, a stock JOSE library.
        JWKSet jwks = JWKSet.parse(agent.get("/.well-known/jwks.json").toString());
        DefaultJWTProcessor<SecurityContext> jwt = new DefaultJWTProcessor<>();
        jwt.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256, new ImmutableJWKSet<>(jwks)));
        Set<String> ids = new HashSet<>();
        long seq = 0;
        for (WebhookReceiver.Delivery d : got) {
            // PROTOCOL (A2A §4.3.3): the body type, Authorization from authentication, the token beside it.
            assertThat(d.header("Content-Type")).isEqualTo("application/a2a+json");
            assertThat(d.header("Authorization")).isEqualTo("Bearer cred-1");
            assertThat(d.header("X-A2A-Notification-Token")).isEqualTo("tok-1");
            JWTClaimsSet claims = jwt.process(d.header("X-Legate-Push-Signature"), null);
            assertThat(claims.getStringClaim("taskId")).isEqualTo(taskId);
            assertThat(claims.getStringClaim("request_body_sha256")).isEqualTo(WebhookPost.sha256(d.body()));
            assertThat(claims.getAudience()).containsExactly(url);
            assertThat(claims.getIssueTime().toInstant()).isBetween(Instant.now().minusSeconds(60), Instant.now());
            assertThat(claims.getLongClaim("seq")).isGreaterThan(seq);
            seq = claims.getLongClaim("seq");
            ids.add(claims.getJWTID());
        }
        assertThat(ids).as("a unique jti per delivery").hasSize(6);
    }

    @Test
    void aConfigurationRegisteredOnARunningTaskGetsTheEventsAfterIt() throws Exception {
        WebhookReceiver r = cleanup.register(new WebhookReceiver());
        PushAgent agent = new PushAgent(cleanup, allowing(r));
        String taskId = PushAgent.taskId(agent.send("gate 2", null, true));
        JsonNode created = agent.call("CreateTaskPushNotificationConfig",
                "{\"taskId\":\"" + taskId + "\",\"url\":\"" + r.url("/late") + "\"}").get("result");
        // PEER (@a2a-js/sdk 1.2.0): the id is optional on create; the agent makes one and returns it.
        assertThat(created.get("id").asText()).isNotEmpty();
        assertThat(created.get("taskId").asText()).isEqualTo(taskId);
        agent.release(2);
        assertThat(kinds(r.next(4, WAIT))).containsExactly("WORKING step 1", "WORKING step 2", "artifact a1",
                "COMPLETED done");
        assertThat(r.next(Duration.ofMillis(300))).isNull();
    }

    @Test
    void aReceiverThatWasDownGetsEveryEventLateAndInOrder() throws Exception {
        int port;
        try (WebhookReceiver reserved = new WebhookReceiver()) {
            port = reserved.port();
        }
        PushSettings settings = PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1:" + port))
                .withPolicy(PushPolicy.DEFAULT.withLimits(200, Duration.ofMinutes(1), 100)
                        .withBackoff(Duration.ofMillis(10), Duration.ofMillis(50)));
        PushAgent agent = new PushAgent(cleanup, settings);
        JsonNode answer = agent.send("steps 3", "{\"url\":\"http://127.0.0.1:" + port + "/hook\"}", false);
        // A dead webhook does not slow the task: the blocking call came back with the task finished.
        assertThat(answer.get("result").get("task").get("status").get("state").asText()).isEqualTo("TASK_STATE_COMPLETED");

        WebhookReceiver up = cleanup.register(new WebhookReceiver(port));
        assertThat(kinds(up.next(6, WAIT))).containsExactlyElementsOf(THREE_STEPS);
        assertThat(up.next(Duration.ofMillis(300))).isNull();
    }

    @Test
    void aSlowWebhookHoldsUpNoOther() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        WebhookReceiver slow = cleanup.register(new WebhookReceiver().holdingUntil(stuck));
        WebhookReceiver fast = cleanup.register(new WebhookReceiver());
        PushAgent agent = new PushAgent(cleanup, allowing(slow, fast));
        String taskId = PushAgent.taskId(agent.send("gate 3", "{\"url\":\"" + slow.url("/slow") + "\"}", true));
        agent.call("CreateTaskPushNotificationConfig", "{\"taskId\":\"" + taskId + "\",\"url\":\"" + fast.url("/fast") + "\"}");
        agent.release(3);
        // The fast one gets all it registered for while the slow one still holds its first request.
        assertThat(kinds(fast.next(5, WAIT))).containsExactly("WORKING step 1", "WORKING step 2", "WORKING step 3",
                "artifact a1", "COMPLETED done");
        assertThat(slow.requests()).isEqualTo(1);
        stuck.countDown();
        assertThat(kinds(slow.next(6, WAIT))).containsExactlyElementsOf(THREE_STEPS);
    }
}
