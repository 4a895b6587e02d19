package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RevisorContract} over gRPC against the SDK's own gRPC server (@a2a-js/sdk 1.2.0
 * {@code server/grpc} on @grpc/grpc-js, interop/revisor-server.mjs with GRPC=true): its card lists
 * gRPC first, so the client, choosing by the card's order, speaks gRPC to another implementation.
 */
class A2aClientGrpcInteropTest extends RevisorContract {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static A2aClient client;

    @BeforeAll
    static void start() {
        JsRevisorServer server = cleanup.register(JsRevisorServer.start(Duration.ofMillis(150), true));
        client = cleanup.register(A2aClient.connect(server.url()));
    }

    @Override
    A2aClient client() {
        return client;
    }

    // PROTOCOL (A2A §8.3.2): the first interface of the card the client speaks is the one dialled.
    @Test
    void theCardsFirstInterfaceGrpcIsTheOneDialled() {
        assertThat(client.endpoint().getProtocolBinding()).isEqualTo("GRPC");
    }
}
