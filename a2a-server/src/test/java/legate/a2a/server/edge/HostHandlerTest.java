package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.observe.Telemetry;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.UnsettledTasks;
import legate.testsupport.Cleanup;
import legate.testsupport.RawHttp;
import legate.wire.trace.Tracing;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DNS rebinding (issue 30, defect 3; README "Security"): with a loopback bind and no authentication,
 * a page that points a name it controls at 127.0.0.1 reaches the server through the victim's
 * browser, which sends the page's name as Host. Every listener answers only the names the server is
 * known by (421 otherwise), and a browser page of another origin only when CORS_ORIGINS allows it
 * (403 otherwise). Before the fix every request below was answered 200 and the SendMessage ran.
 */
class HostHandlerTest {
    private static final String REBIND = "rebind.attacker.example";
    private static final String SEND = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
            + "{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}}";
    private static final String SEND_V03 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
            + "{\"kind\":\"message\",\"messageId\":\"m1\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}]}}}";
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static final AtomicInteger turns = new AtomicInteger();
    /** Loopback bind, default edge, /metrics on the A2A port. */
    private static int plain;
    /** Loopback bind, PUBLIC_URL http://agent.example.test:PORT/, ALLOWED_HOSTS proxy.example.test, /metrics on its own port. */
    private static int named;
    private static int namedMetrics;
    /** ALLOWED_HOSTS=*. */
    private static int open;

    @BeforeAll
    static void start() throws Exception {
        plain = cleanup.start("plain", server("localhost", ServerEdge.PLAIN, Telemetry.DEFAULT), AgentServer::start,
                AgentServer::openStreams);
        AgentServer n = server("agent.example.test", ServerEdge.PLAIN.withAllowedHosts(List.of("proxy.example.test")),
                new Telemetry(0, null, Tracing.OFF));
        named = cleanup.start("named", n, AgentServer::start, AgentServer::openStreams);
        namedMetrics = n.metricsPort();
        open = cleanup.start("open", server("localhost", ServerEdge.PLAIN.withAllowedHosts(List.of("*")), Telemetry.DEFAULT),
                AgentServer::start, AgentServer::openStreams);
    }

    private static AgentServer server(String publicHost, ServerEdge edge, Telemetry telemetry) {
        AgentExecutor counting = (ctx, events) -> {
            turns.incrementAndGet();
            events.task(ctx.initialTask());
            events.status(TaskState.TASK_STATE_COMPLETED, null);
        };
        return AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", ServerConfig.DEFAULT_MAX_BODY_BYTES,
                        Duration.ofSeconds(2)).withEdge(edge),
                port -> AgentCard.newBuilder().setName("hosts").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://" + publicHost + ":" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
                        .addDefaultInputModes("text/plain").addDefaultOutputModes("text/plain").build(),
                counting, new InMemoryTaskStore(), Clock.systemUTC(), telemetry);
    }

    @Test
    void aRebindingHostIsRefused421OnEveryListenerAndRunsNothing() throws Exception {
        String host = REBIND + ":" + plain;
        int before = turns.get();
        Map<String, RawHttp.Answer> answers = Map.of(
                "JSON-RPC SendMessage", RawHttp.postJson(plain, "/", host, null, SEND),
                "v0.3 message/send", RawHttp.postJson(plain, "/v0.3/", host, null, SEND_V03),
                "HTTP+JSON message:send", RawHttp.postJson(plain, "/message:send", host, null,
                        "{\"message\":{\"messageId\":\"m2\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}"),
                "GET /v1/tasks", RawHttp.get(plain, "/v1/tasks", host, null),
                "the card", RawHttp.get(plain, "/.well-known/agent-card.json", host, null),
                "/metrics", RawHttp.get(plain, "/metrics", host, null),
                "the JWKS", RawHttp.get(plain, "/.well-known/jwks.json", host, null),
                "/metrics on METRICS_PORT", RawHttp.get(namedMetrics, "/metrics", REBIND + ":" + namedMetrics, null));

        answers.forEach((what, a) -> {
            assertThat(a.status()).as(what).isEqualTo(421);
            assertThat(a.body()).as(what).contains("ALLOWED_HOSTS").contains(REBIND).doesNotContain("\"result\"")
                    .doesNotContain("legate_");
        });
        assertThat(turns.get()).as("no turn ran for a rebinding page").isEqualTo(before);
    }

    /** A preflight is refused the same way: the Host is checked before anything else, CORS included. */
    @Test
    void aRebindingPreflightIsRefusedToo() throws Exception {
        RawHttp.Answer a = RawHttp.send(plain, "OPTIONS / HTTP/1.1\r\nHost: " + REBIND + "\r\nOrigin: http://" + REBIND
                + "\r\nAccess-Control-Request-Method: POST\r\n\r\n");

        assertThat(a.status()).isEqualTo(421);
        assertThat(a.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void theLoopbackNamesAreAnsweredWithAnyPort() throws Exception {
        for (String host : List.of("127.0.0.1:" + plain, "localhost:" + plain, "[::1]:" + plain, "LocalHost", "127.0.0.1")) {
            assertThat(RawHttp.get(plain, "/v1/tasks", host, null).status()).as(host).isEqualTo(200);
            assertThat(RawHttp.get(plain, "/.well-known/agent-card.json", host, null).status()).as(host).isEqualTo(200);
            assertThat(RawHttp.get(plain, "/metrics", host, null).status()).as(host).isEqualTo(200);
        }
        assertThat(RawHttp.get(namedMetrics, "/metrics", "localhost:" + namedMetrics, null).status()).isEqualTo(200);
    }

    @Test
    void publicUrlsHostAndAllowedHostsAreAnswered() throws Exception {
        int before = turns.get();
        RawHttp.Answer viaPublicName = RawHttp.postJson(named, "/", "agent.example.test:" + named, null, SEND);
        RawHttp.Answer viaProxyName = RawHttp.get(named, "/v1/tasks", "proxy.example.test", null);

        assertThat(viaPublicName.status()).isEqualTo(200);
        assertThat(viaPublicName.body()).contains("TASK_STATE_COMPLETED");
        assertThat(turns.get()).isEqualTo(before + 1);
        assertThat(viaProxyName.status()).isEqualTo(200);
        assertThat(RawHttp.get(named, "/v1/tasks", "other.example.test", null).status()).isEqualTo(421);
        assertThat(RawHttp.get(plain, "/v1/tasks", "agent.example.test", null).status())
                .as("another server's public name").isEqualTo(421);
    }

    // Several instances on one database forward a conversation's requests to the INSTANCE_URL of the
    // instance that runs it, whose name is then the Host: it must be answered without ALLOWED_HOSTS.
    @Test
    void instanceUrlsHostIsAnsweredForTheRequestsOtherInstancesForward() throws Exception {
        InstanceGroup named = new InstanceGroup() {
            private volatile URI url;

            @Override
            public void join(int boundPort, UnsettledTasks unsettled) {
                url = URI.create("http://instance-1.internal:" + boundPort + "/");
                InstanceGroup.ALONE.join(boundPort, unsettled);
            }

            @Override
            public Optional<URI> url() {
                return Optional.ofNullable(url);
            }

            @Override
            public Optional<URI> runnerElsewhere(String contextId) {
                return Optional.empty();
            }

            @Override
            public Watch watch(String taskId, Runnable appended) {
                return () -> {
                };
            }

            @Override
            public void close() {
            }
        };
        AgentServer server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", ServerConfig.DEFAULT_MAX_BODY_BYTES,
                        Duration.ofSeconds(2)),
                port -> AgentCard.newBuilder().setName("instance").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .addDefaultInputModes("text/plain").addDefaultOutputModes("text/plain").build(),
                (ctx, events) -> events.task(ctx.initialTask()), new InMemoryTaskStore(), Clock.systemUTC(), named);
        int port = cleanup.start("instance", server, AgentServer::start, AgentServer::openStreams);

        assertThat(RawHttp.get(port, "/v1/tasks", "instance-1.internal:" + port, null).status()).isEqualTo(200);
        assertThat(RawHttp.get(port, "/v1/tasks", REBIND + ":" + port, null).status()).isEqualTo(421);
    }

    /** ALLOWED_HOSTS=* turns the Host check off (behind a proxy that checks Host itself); Origin is still checked. */
    @Test
    void aStarInAllowedHostsAnswersEveryHost() throws Exception {
        assertThat(RawHttp.get(open, "/v1/tasks", REBIND, null).status()).isEqualTo(200);
        assertThat(RawHttp.get(open, "/v1/tasks", REBIND, "http://evil.example").status()).isEqualTo(403);
    }

    // A plain cross-site request (a form post, a fetch in no-cors mode) names the page in Origin:
    // without CORS_ORIGINS it was served, and only its answer was hidden from the page.
    @Test
    void aBrowserPageOfAnotherOriginIsRefused403WithoutCorsOrigins() throws Exception {
        int before = turns.get();
        RawHttp.Answer post = RawHttp.postJson(plain, "/", "127.0.0.1:" + plain, "http://evil.example", SEND);
        RawHttp.Answer nullOrigin = RawHttp.get(plain, "/v1/tasks", "127.0.0.1:" + plain, "null");
        RawHttp.Answer otherPort = RawHttp.get(plain, "/v1/tasks", "127.0.0.1:" + plain, "http://127.0.0.1:1");

        assertThat(post.status()).isEqualTo(403);
        assertThat(post.body()).contains("CORS_ORIGINS").contains("http://evil.example").doesNotContain("\"result\"");
        assertThat(turns.get()).isEqualTo(before);
        assertThat(nullOrigin.status()).as("a sandboxed page or a file").isEqualTo(403);
        assertThat(otherPort.status()).as("another port is another origin").isEqualTo(403);
    }

    @Test
    void theServersOwnOriginIsAnsweredWithoutCorsHeaders() throws Exception {
        RawHttp.Answer same = RawHttp.get(plain, "/v1/tasks", "127.0.0.1:" + plain, "http://127.0.0.1:" + plain);
        RawHttp.Answer publicOrigin = RawHttp.get(named, "/v1/tasks", "localhost:" + named,
                "http://agent.example.test:" + named);

        assertThat(same.status()).isEqualTo(200);
        assertThat(same.header("Access-Control-Allow-Origin")).isNull();
        assertThat(publicOrigin.status()).as("PUBLIC_URL's origin, behind a proxy that rewrote Host").isEqualTo(200);
    }
}
