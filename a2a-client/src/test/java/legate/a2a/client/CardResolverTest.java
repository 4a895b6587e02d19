package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.ScriptedPeer;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.SecurityScheme;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;

/** Discovery: where the card is fetched, how it is read, and which address the client then dials. */
class CardResolverTest {

    // PROTOCOL (A2A §8.3.2): calls go to the URL of the chosen interface, not to where the card came
    // from; this is what lets PUBLIC_URL route a client through a proxy such as the tap.
    @Test
    void callsGoToTheUrlTheCardAdvertisesNotToWhereTheCardCameFrom() throws Exception {
        ServerConfig config = new ServerConfig("127.0.0.1", 0, "/a2a/rpc", ServerConfig.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(5));
        AgentServer agent = AgentServer.create(config,
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/a2a/rpc"), new RevisorExecutor(Duration.ZERO));
        try {
            URI advertised = URI.create("http://127.0.0.1:" + agent.start() + "/a2a/rpc");
            try (ScriptedPeer cardHost = new ScriptedPeer((request, out, self) -> {
                if (ScriptedPeer.isCardRequest(request)) {
                    ScriptedPeer.respond(out, 200, "application/json", ScriptedPeer.cardJson(advertised));
                } else {
                    ScriptedPeer.respond(out, 404, "text/html", "<h1>the card host serves no A2A</h1>");
                }
            }); A2aClient client = A2aClient.connect(cardHost.url())) {

                assertThat(client.endpoint().getUrl()).isEqualTo(advertised.toString());
                assertThat(client.send(UserMessage.text("one two")).getTask().getStatus().getState())
                        .isEqualTo(TaskState.TASK_STATE_COMPLETED);
            }
        } finally {
            agent.stop();
        }
    }

    // DEFECT (seen in CI): the card came back in milliseconds, yet the client reported "no answer
    // within 10 s", because the JDK completes sendAsync's future on the common ForkJoinPool and a
    // task blocked there (one thread on two cores) held it. A client must not need that pool.
    @Test
    void aCallIsAnsweredWhileEveryThreadOfTheCommonPoolIsBlocked() throws Exception {
        int threads = ForkJoinPool.getCommonPoolParallelism();
        CountDownLatch started = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < threads; i++) {
            ForkJoinPool.commonPool().execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> ScriptedPeer.respond(out, 200,
                "application/json", ScriptedPeer.cardJson(URI.create("http://127.0.0.1:1/"))))) {
            assertThat(started.await(10, TimeUnit.SECONDS)).as("every common-pool thread blocked").isTrue();
            try (A2aClient client = A2aClient.connect(peer.url())) {
                assertThat(client.endpoint().getUrl()).isEqualTo("http://127.0.0.1:1/");
            }
        } finally {
            release.countDown();
        }
    }

    // PROTOCOL (A2A §8.3.2): a card with nothing this client speaks is an error naming what it offered.
    @Test
    void aCardWithNoUsableInterfaceIsAnErrorListingWhatItOffered() throws Exception {
        String card = """
                {"name":"Elsewhere","description":"d","version":"1","supportedInterfaces":[
                  {"url":"agent.example:443","protocolBinding":"GRPC","protocolVersion":"0.3"},
                  {"url":"http://agent.example/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"}],
                 "capabilities":{},"skills":[]}""";
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> ScriptedPeer.respond(out, 200, "application/json", card))) {
            assertThatThrownBy(() -> A2aClient.connect(peer.url()))
                    .isInstanceOfSatisfying(AgentCardException.class, e -> {
                        assertThat(e.offered()).extracting(AgentInterface::getProtocolBinding).containsExactly("GRPC", "JSONRPC");
                        assertThat(e.getMessage()).contains("JSONRPC 1.0")
                                .contains("GRPC 0.3 at agent.example:443")
                                .contains("JSONRPC 0.3 at http://agent.example/v03");
                    });
        }
    }

    // PEER (@a2a-js/sdk 1.2.0): the well-known card writes oneofs as {"$case":…,"value":…}; read as
    // plain ProtoJSON the security scheme would silently come out empty.
    @Test
    void theJavaScriptSdksCaseValueOneofsAreRead() throws Exception {
        String card = """
                {"name":"JS","description":"d","version":"1","supportedInterfaces":[
                  {"url":"http://127.0.0.1:1/","protocolBinding":"JSONRPC","tenant":"","protocolVersion":"1.0"}],
                 "capabilities":{"streaming":true,"extensions":[]},
                 "securitySchemes":{
                   "bearer":{"scheme":{"$case":"httpAuthSecurityScheme","value":{"description":"","scheme":"Bearer","bearerFormat":"JWT"}}},
                   "oauth":{"scheme":{"$case":"oauth2SecurityScheme","value":{"description":"","oauth2MetadataUrl":"",
                     "flows":{"flow":{"$case":"clientCredentials","value":{"tokenUrl":"https://auth.example/token","refreshUrl":"","scopes":{"read":"r"}}}}}}}},
                 "securityRequirements":[{"schemes":{"bearer":{"list":[]}}}],
                 "skills":[],"signatures":[],"someFieldFromTheFuture":{"x":1}}""";
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> ScriptedPeer.respond(out, 200, "application/json", card));
             A2aClient client = A2aClient.connect(peer.url())) {

            SecurityScheme bearer = client.card().getSecuritySchemesOrThrow("bearer");
            assertThat(bearer.getHttpAuthSecurityScheme().getScheme()).isEqualTo("Bearer");
            assertThat(bearer.getHttpAuthSecurityScheme().getBearerFormat()).isEqualTo("JWT");
            SecurityScheme oauth = client.card().getSecuritySchemesOrThrow("oauth");
            assertThat(oauth.getOauth2SecurityScheme().getFlows().getClientCredentials().getTokenUrl())
                    .isEqualTo("https://auth.example/token");
        }
    }

    // PROTOCOL (A2A §8.2): the card lives under the base URL's path, at .well-known/agent-card.json.
    @Test
    void theCardIsFetchedFromTheWellKnownPathUnderTheBaseUrl() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) ->
                ScriptedPeer.respond(out, 200, "application/json", ScriptedPeer.cardJson(self.url())))) {
            try (A2aClient client = A2aClient.connect(peer.url().resolve("/agents/revisor"))) {
                assertThat(client.card().getName()).isEqualTo("Scripted");
            }
            ScriptedPeer.Exchange fetch = peer.nextRequest(Duration.ofSeconds(5));
            assertThat(fetch.method()).isEqualTo("GET");
            assertThat(fetch.path()).isEqualTo("/agents/revisor/.well-known/agent-card.json");
            // PROTOCOL (A2A §3.6): the version travels on every request, the card fetch included.
            assertThat(fetch.header("A2A-Version")).isEqualTo("1.0");
        }
    }

    @Test
    void noCardAtTheAddressIsADiscoveryErrorWithTheStatus() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> ScriptedPeer.respond(out, 404, "text/html", "<h1>nope</h1>"))) {
            assertThatThrownBy(() -> A2aClient.connect(peer.url()))
                    .isInstanceOf(AgentCardException.class)
                    .hasMessageContaining("no agent card at " + peer.url() + ".well-known/agent-card.json")
                    .hasMessageContaining("HTTP 404");
        }
    }

    @Test
    void anAnswerThatIsNotACardIsADiscoveryError() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> ScriptedPeer.respond(out, 200, "text/html", "<html>hello</html>"))) {
            assertThatThrownBy(() -> A2aClient.connect(peer.url()))
                    .isInstanceOf(AgentCardException.class)
                    .hasMessageContaining("is not JSON");
        }
    }

    // Nothing listening is a transport failure, not a missing card and not a protocol error.
    @Test
    void nothingListeningIsAConnectFailure() throws Exception {
        URI closed = closedPort();
        assertThatThrownBy(() -> A2aClient.connect(closed))
                .isInstanceOfSatisfying(TransportException.class,
                        e -> assertThat(e.kind()).isEqualTo(TransportException.Kind.CONNECT_FAILED));
    }

    // The card fetch is bounded: a peer that accepts and never answers cannot hold discovery.
    @Test
    void aCardFetchThatIsNeverAnsweredTimesOut() throws Exception {
        ClientConfig quick = ClientConfig.defaults().withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofSeconds(2));
        try (ScriptedPeer silent = new ScriptedPeer((request, out, self) -> self.hangUntilClosed())) {
            assertThatThrownBy(() -> A2aClient.connect(silent.url(), quick))
                    .isInstanceOfSatisfying(TransportException.class,
                            e -> assertThat(e.kind()).isEqualTo(TransportException.Kind.TIMED_OUT));
        }
    }

    static URI closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + s.getLocalPort() + "/");
        }
    }
}
