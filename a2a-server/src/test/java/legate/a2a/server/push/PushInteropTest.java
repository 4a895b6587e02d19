package legate.a2a.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Push notifications configured by the official JavaScript SDK's client (@a2a-js/sdk 1.2.0,
 * interop/push-check.mjs): inline in SendMessage and through the four methods, received by a
 * webhook in the script that verifies each JWT against Legate's JWKS. A missing Node.js fails this test.
 */
class PushInteropTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void theJavaScriptClientRegistersWebhooksAndTheyReceiveThePushes() throws Exception {
        int hookPort;
        try (ServerSocket reserved = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            hookPort = reserved.getLocalPort();
        }
        PushAgent agent = new PushAgent(cleanup, PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1:" + hookPort))
                .withPolicy(PushPolicy.DEFAULT.withBackoff(Duration.ofMillis(20), Duration.ofMillis(200))));
        ChildRun run = NodeScript.test("push-check.mjs").env("A2A_URL", "http://127.0.0.1:" + agent.port)
                .env("PUSH_PORT", Integer.toString(hookPort)).run(Duration.ofSeconds(90));
        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# pass 2", "# fail 0");
    }
}
