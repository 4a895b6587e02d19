package legate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.observe.Telemetry;
import legate.mcp.guard.BearerToken;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.RawHttp;
import legate.wire.trace.Tracing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The MCP endpoint on its real port against a DNS-rebinding page (issue 30, defect 3; MCP Streamable
 * HTTP's security warning): it answers the loopback names, IPv6 included, through the same check as
 * the A2A server (KnownHosts), and refuses another name with a body that says which, even with the
 * right token (a page could have read it from nowhere, but the check must not rely on that).
 */
class McpHostTest {
    private static final BearerToken TOKEN = BearerToken.mint(new SecureRandom());
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void aRebindingHostIsRefusedAndTheLoopbackNamesAreAnswered() throws Exception {
        AgentServer revisor = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        int revisorPort = cleanup.start("Revisor", revisor, AgentServer::start, AgentServer::openStreams);
        McpEndpoint endpoint = cleanup.register(McpEndpoint.create(McpConfig.loopback(0, TOKEN,
                Map.of("revisor", URI.create("http://127.0.0.1:" + revisorPort + "/")))));
        endpoint.start();
        int port = endpoint.port();
        String path = URI.create(endpoint.url()).getPath();

        RawHttp.Answer rebound = initialize(port, path, "rebind.attacker.example:" + port);
        assertThat(rebound.status()).isEqualTo(403);
        assertThat(rebound.body()).contains("rebind.attacker.example").doesNotContain("serverInfo");
        for (String host : new String[] {"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}) {
            RawHttp.Answer a = initialize(port, path, host);
            assertThat(a.status()).as(host).isEqualTo(200);
            assertThat(a.body()).as(host).contains("serverInfo");
        }
    }

    // DEFECT (issue 30): /metrics on the MCP port was served before the servlet context whose filter
    // checks Host, so a rebinding page read it (200) while /mcp with the same Host said 403. It now
    // passes the same check on the MCP port, and the loopback names only on a METRICS_PORT listener.
    @Test
    void metricsRefusesARebindingHostOnTheMcpPortAndOnItsOwnListener() throws Exception {
        McpConfig config = McpConfig.loopback(0, TOKEN, Map.of("revisor", URI.create("http://127.0.0.1:9/")));
        McpEndpoint onMcpPort = cleanup.register(McpEndpoint.create(config));
        onMcpPort.start();
        McpEndpoint ownListener = cleanup.register(McpEndpoint.create(config, Clock.systemUTC(),
                new Telemetry(0, null, Tracing.OFF)));
        ownListener.start();

        for (int port : new int[] {onMcpPort.metricsPort(), ownListener.metricsPort()}) {
            RawHttp.Answer rebound = RawHttp.get(port, "/metrics", "evil.example", null);
            assertThat(rebound.status()).as("port %d", port).isEqualTo(403);
            assertThat(rebound.body()).as("port %d", port).contains("evil.example");
            assertThat(rebound.header("Content-Type")).as("port %d", port).doesNotContain("version=0.0.4");
            assertThat(RawHttp.get(port, "/metrics", "rebind.attacker.example:" + port, null).status()).isEqualTo(403);
            for (String host : new String[] {"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}) {
                RawHttp.Answer a = RawHttp.get(port, "/metrics", host, null);
                assertThat(a.status()).as(host).isEqualTo(200);
                assertThat(a.header("Content-Type")).as(host).contains("version=0.0.4");
            }
        }
    }

    private static RawHttp.Answer initialize(int port, String path, String host) throws Exception {
        int length = McpCaller.INITIALIZE.getBytes(StandardCharsets.UTF_8).length;
        return RawHttp.send(port, "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer "
                + TOKEN.value() + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + "Content-Length: " + length + "\r\n\r\n" + McpCaller.INITIALIZE);
    }
}
