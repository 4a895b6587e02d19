package legate.revisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ProtocolBinding;
import legate.a2a.server.ServerConfig;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Legate's HTTP+JSON binding driven by the official JavaScript SDK's REST client (@a2a-js/sdk
 * 1.2.0, interop/a2a-rest-check.mjs): blocking and streaming sends, GetTask, ListTasks, CancelTask,
 * SubscribeToTask, the errors as the SDK's REST transport classifies them, and the error body and
 * bad input on the raw wire. The server runs under a path and lists REST first, so the SDK must
 * find it from the card. A missing Node.js fails this test; it is never skipped.
 */
class RevisorRestInteropTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        AgentServer server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/a2a/", ServerConfig.DEFAULT_MAX_BODY_BYTES,
                        Duration.ofSeconds(30)).withBindings(List.of(ProtocolBinding.HTTP_JSON, ProtocolBinding.JSONRPC)),
                p -> RevisorCard.build(null, "http://127.0.0.1:" + p + "/a2a/"),
                new RevisorExecutor(Duration.ofMillis(300)));
        port = cleanup.start("the Revisor server", server, AgentServer::start, AgentServer::openStreams);
    }

    @Test
    void theOfficialJavaScriptRestClientSeesEveryRuleItChecksHeld() {
        ChildRun run = NodeScript.test("a2a-rest-check.mjs").env("A2A_URL", "http://127.0.0.1:" + port)
                .run(Duration.ofSeconds(90));

        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0");
        assertThat(run.stdout()).containsPattern("# pass (1[0-9])");
    }
}
