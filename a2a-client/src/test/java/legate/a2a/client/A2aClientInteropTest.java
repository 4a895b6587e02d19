package legate.a2a.client;

import java.time.Duration;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RevisorContract} against the reference server built on @a2a-js/sdk 1.2.0
 * (interop/revisor-server.mjs), run as a Node.js child process: the client must speak the
 * protocol as another implementation reads and writes it, well-known card quirks included.
 */
class A2aClientInteropTest extends RevisorContract {
    // Stops the client, then the Node.js server, after the class; no child process may be left.
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static A2aClient client;

    @BeforeAll
    static void start() {
        JsRevisorServer server = cleanup.register(JsRevisorServer.start(Duration.ofMillis(150)));
        client = cleanup.register(A2aClient.connect(server.url()));
    }

    @Override
    A2aClient client() {
        return client;
    }
}
