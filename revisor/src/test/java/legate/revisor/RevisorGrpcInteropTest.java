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
 * Legate's gRPC binding driven by the official JavaScript SDK's gRPC client (@a2a-js/sdk 1.2.0
 * {@code client/grpc} on @grpc/grpc-js, interop/a2a-grpc-client-check.mjs): the card read over
 * HTTP, then blocking, streaming, get, cancel, list, subscribe and the errors over gRPC, each error
 * named by the SDK from the ErrorInfo reason Legate puts in the status details (A2A §10.6).
 */
class RevisorGrpcInteropTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                p -> RevisorCard.build(null, "http://127.0.0.1:" + p + "/"),
                new RevisorExecutor(Duration.ofMillis(300)));
        port = cleanup.start("the Revisor server", server, AgentServer::start, AgentServer::openStreams);
    }

    @Test
    void theOfficialJavaScriptGrpcClientSeesEveryRuleItChecksHeld() {
        ChildRun run = NodeScript.test("a2a-grpc-client-check.mjs").env("A2A_URL", "http://127.0.0.1:" + port)
                .run(Duration.ofSeconds(90));

        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0");
        assertThat(run.stdout()).contains("# pass 9");
    }
}
