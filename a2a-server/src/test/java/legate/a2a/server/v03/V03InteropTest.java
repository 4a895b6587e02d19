package legate.a2a.server.v03;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import legate.a2a.server.ServerConfig;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Legate's v0.3 path driven by the official JavaScript SDK's v0.3 client (@a2a-js/sdk 1.2.0's
 * compat LegacyJsonRpcTransport, pinned in interop/): blocking send, input-required and its
 * reply, a stream, get, cancel, resubscribe and errors, each check naming what it asserts
 * (interop/a2a-v03-client-check.mjs). A missing Node.js fails this test; it is never skipped.
 */
class V03InteropTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();

    @Test
    void theOfficialV03ClientSeesEveryRuleItChecksHeld() throws Exception {
        int port = V03TestAgent.serve(cleanup, ServerConfig.loopback(0));
        ChildRun run = NodeScript.test("a2a-v03-client-check.mjs").env("A2A_URL", "http://127.0.0.1:" + port)
                .run(Duration.ofSeconds(90));

        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0").contains("# pass 9");
    }
}
