package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RevisorContract} over the gRPC binding (A2A §10) against Legate's own server, the client
 * told to speak gRPC only ({@code --binding GRPC}): the same conversation and the same typed errors
 * as over JSON-RPC.
 */
class A2aClientGrpcTest extends RevisorContract {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static A2aClient client;
    private static AgentServer server;

    @BeforeAll
    static void start() throws Exception {
        server = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"),
                new RevisorExecutor(Duration.ofMillis(150)));
        int port = cleanup.start("the Revisor server", server, AgentServer::start, AgentServer::openStreams);
        client = cleanup.register(A2aClient.connect(URI.create("http://127.0.0.1:" + port),
                ClientConfig.defaults().withBindings(List.of(Binding.GRPC_1_0))));
    }

    @Override
    A2aClient client() {
        return client;
    }

    // PROTOCOL (A2A §8.3.2): the client dials the URL of the interface it chose, here host:port of gRPC.
    @Test
    void theClientDialsTheCardsGrpcInterface() {
        assertThat(client.endpoint().getProtocolBinding()).isEqualTo("GRPC");
        assertThat(client.endpoint().getUrl()).isEqualTo("127.0.0.1:" + server.grpcPort());
    }
}
