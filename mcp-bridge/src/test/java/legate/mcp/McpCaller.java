package legate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import legate.mcp.guard.BearerToken;
import legate.wire.json.WireJson;

/**
 * An MCP caller that speaks Streamable HTTP by hand over the JDK HttpClient, for tests that look at
 * the wire itself: the handshake, a tools/call whose response stream carries progress notifications
 * and then the result, or a caller that hangs up half-way.
 */
public final class McpCaller implements AutoCloseable {
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"0\"}}}";

    private final McpEndpoint endpoint;
    private final BearerToken token;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    public McpCaller(McpEndpoint endpoint, BearerToken token) {
        this.endpoint = endpoint;
        this.token = token;
    }

    /** initialize and notifications/initialized; returns the session id. */
    public String initialize() throws IOException, InterruptedException {
        HttpResponse<String> init = http.send(post(null, INITIALIZE), HttpResponse.BodyHandlers.ofString());
        assertThat(init.statusCode()).isEqualTo(200);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        http.send(post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                HttpResponse.BodyHandlers.discarding());
        return session;
    }

    /** A tools/call with a progress token, its response stream left to the caller to read. */
    public HttpResponse<InputStream> openCall(String session, String tool, String argumentsJson)
            throws IOException, InterruptedException {
        return http.send(post(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\""
                + tool + "\",\"arguments\":" + argumentsJson + ",\"_meta\":{\"progressToken\":\"p1\"}}}"),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    /** A tools/call read to its end: every JSON-RPC message of its response stream in order, the result last. */
    public List<JsonNode> call(String session, String tool, String argumentsJson) throws IOException, InterruptedException {
        List<JsonNode> messages = new ArrayList<>();
        try (BufferedReader sse = new BufferedReader(new InputStreamReader(openCall(session, tool, argumentsJson).body(),
                StandardCharsets.UTF_8))) {
            for (String line = sse.readLine(); line != null; line = sse.readLine()) {
                if (line.startsWith("data:")) {
                    JsonNode message = WireJson.mapper().readTree(line.substring("data:".length()).strip());
                    messages.add(message);
                    if (message.has("result") || message.has("error")) {
                        return messages;
                    }
                }
            }
        }
        throw new AssertionError("the call's stream ended without a result, after " + messages);
    }

    /** A POST to the endpoint with the token, in a session when one is given. */
    public HttpRequest post(String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint.url()))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + token.value())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b.build();
    }

    public HttpClient http() {
        return http;
    }

    @Override
    public void close() {
        http.shutdownNow();
    }
}
