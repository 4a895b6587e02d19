package legate.revisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Legate's server and Revisor driven by the official JavaScript SDK client (@a2a-js/sdk 1.2.0,
 * pinned in interop/): createFromUrl, sendMessage, sendMessageStream, getTask, cancelTask,
 * listTasks and resubscribeTask, each check naming the A2A rule it asserts
 * (interop/a2a-client-check.mjs). A missing Node.js fails this test; it is never skipped.
 */
class RevisorInteropTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        // The cancel and resubscribe checks must catch a task between steps: 300 ms per step.
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                p -> RevisorCard.build(null, "http://127.0.0.1:" + p + "/"),
                new RevisorExecutor(Duration.ofMillis(300)));
        port = cleanup.start("the Revisor server", server, AgentServer::start, AgentServer::openStreams);
    }

    @Test
    void theOfficialJavaScriptClientSeesEveryRuleItChecksHeld() {
        ChildRun run = NodeScript.test("a2a-client-check.mjs").env("A2A_URL", "http://127.0.0.1:" + port)
                .run(Duration.ofSeconds(90));

        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0");
        assertThat(run.stdout()).containsPattern("# pass (1[3-9]|[2-9][0-9])");
    }
}
