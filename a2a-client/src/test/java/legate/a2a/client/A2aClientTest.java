package legate.a2a.client;

import java.time.Duration;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link RevisorContract} against Legate's own server, in process on a loopback port. */
class A2aClientTest extends RevisorContract {
    private static AgentServer server;
    private static A2aClient client;

    @BeforeAll
    static void start() throws Exception {
        server = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"),
                new RevisorExecutor(Duration.ofMillis(150)));
        int port = server.start();
        client = A2aClient.connect(java.net.URI.create("http://127.0.0.1:" + port));
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Override
    A2aClient client() {
        return client;
    }
}
