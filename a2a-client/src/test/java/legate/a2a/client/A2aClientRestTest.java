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
 * {@link RevisorContract} over the HTTP+JSON binding against Legate's own server (A2A §11): the
 * client forced onto REST ({@code --binding REST}) must do all that it does over JSON-RPC.
 */
class A2aClientRestTest extends RevisorContract {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static A2aClient client;

    @BeforeAll
    static void start() throws Exception {
        // Under a path: the REST paths are appended to the card's HTTP+JSON URL, not to the host.
        AgentServer server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/agents/revisor/",
                        ServerConfig.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30)),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/agents/revisor/"),
                new RevisorExecutor(Duration.ofMillis(150)));
        int port = cleanup.start("the Revisor server", server, AgentServer::start, AgentServer::openStreams);
        client = cleanup.register(A2aClient.connect(URI.create("http://127.0.0.1:" + port),
                ClientConfig.defaults().withBindings(List.of(Binding.named("REST")))));
    }

    @Override
    A2aClient client() {
        return client;
    }

    @Test
    void theClientDialsTheCardsRestInterface() {
        assertThat(client.endpoint().getProtocolBinding()).isEqualTo("HTTP+JSON");
        assertThat(client.endpoint().getUrl()).endsWith("/agents/revisor");
    }
}
