package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RevisorContract} over HTTP+JSON against the SDK's own REST server (@a2a-js/sdk 1.2.0's
 * express restHandler, interop/revisor-rest-server.mjs): the client, left to the card's order,
 * dials REST because the card lists it first (A2A §8.3.2), and must read the SDK's paths, bodies,
 * SSE frames and google.rpc.Status errors as another implementation writes them.
 */
class A2aClientRestInteropTest extends RevisorContract {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static A2aClient client;

    @BeforeAll
    static void start() {
        JsRevisorServer server = cleanup.register(JsRevisorServer.start("revisor-rest-server.mjs", Duration.ofMillis(150)));
        client = cleanup.register(A2aClient.connect(server.url()));
    }

    @Override
    A2aClient client() {
        return client;
    }

    @Test
    void theCardsFirstInterfaceIsRestAndTheClientDialsIt() {
        assertThat(client.endpoint().getProtocolBinding()).isEqualTo("HTTP+JSON");
        assertThat(client.endpoint().getUrl()).endsWith("/rest");
    }
}
