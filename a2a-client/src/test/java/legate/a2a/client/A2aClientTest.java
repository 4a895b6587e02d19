package legate.a2a.client;

import java.net.URI;
import java.time.Duration;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RevisorContract} against Legate's own server, in process on a loopback port. */
class A2aClientTest extends RevisorContract {
    // Stops the client, then the server, after the class; after each test, every stream it opened is over.
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static A2aClient client;

    @BeforeAll
    static void start() throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"),
                new RevisorExecutor(Duration.ofMillis(150)));
        int port = cleanup.start("the Revisor server", server, AgentServer::start, AgentServer::openStreams);
        client = cleanup.register(A2aClient.connect(URI.create("http://127.0.0.1:" + port)));
    }

    @Override
    A2aClient client() {
        return client;
    }
}
