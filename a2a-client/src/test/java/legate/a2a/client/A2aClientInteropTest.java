package legate.a2a.client;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link RevisorContract} against the reference server built on @a2a-js/sdk 1.2.0
 * (interop/revisor-server.mjs), run as a Node.js child process: the client must speak the
 * protocol as another implementation reads and writes it, well-known card quirks included.
 */
class A2aClientInteropTest extends RevisorContract {
    private static JsRevisorServer server;
    private static A2aClient client;

    @BeforeAll
    static void start() throws Exception {
        server = JsRevisorServer.start(Duration.ofMillis(150));
        client = A2aClient.connect(server.url());
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Override
    A2aClient client() {
        return client;
    }
}
