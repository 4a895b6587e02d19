package legate.tap.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import legate.wire.json.WireJson;

/**
 * The page's composer: sends a message to the agent through the tap, as any client would, so the
 * exchange shows up on the page like the others. A SendStreamingMessage with the text as its one
 * part, and the taskId and contextId when given; the stream is read to its end on a virtual
 * thread, because the page sees it through the tap, not through this class.
 *
 * <p>The JSON-RPC path is the one the agent's card names for its v1.0 JSON-RPC interface, read
 * once through the tap; "/" when the card cannot be read or lists none.
 */
final class Composer {
    static final int MAX_TEXT_CHARS = 64 * 1024;
    static final int MAX_ID_CHARS = 256;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI tap;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final AtomicLong sent = new AtomicLong();
    private volatile String path;

    /** @param tap the tap's own URL: the message goes through it */
    Composer(URI tap) {
        this.tap = tap;
    }

    URI tap() {
        return tap;
    }

    /**
     * Starts sending; returns the request's JSON-RPC id and message id at once.
     *
     * @throws IllegalArgumentException naming the field that is wrong
     */
    ObjectNode send(JsonNode form) {
        String text = form.path("text").asText("");
        if (text.isBlank()) {
            throw new IllegalArgumentException("the message needs some text");
        }
        if (text.length() > MAX_TEXT_CHARS) {
            throw new IllegalArgumentException("the text is longer than " + MAX_TEXT_CHARS + " characters");
        }
        ObjectNode message = WireJson.mapper().createObjectNode();
        message.put("messageId", UUID.randomUUID().toString());
        message.put("role", "ROLE_USER");
        message.putArray("parts").addObject().put("text", text);
        for (String field : new String[] {"taskId", "contextId"}) {
            String v = form.path(field).asText("").strip();
            if (v.length() > MAX_ID_CHARS) {
                throw new IllegalArgumentException(field + " is longer than " + MAX_ID_CHARS + " characters");
            }
            if (!v.isEmpty()) {
                message.put(field, v);
            }
        }
        ObjectNode request = WireJson.mapper().createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", "inspector-" + sent.incrementAndGet());
        request.put("method", "SendStreamingMessage");
        request.putObject("params").set("message", message);
        String body = WireJson.write(request);
        Thread.ofVirtual().name("legate-tap-composer").start(() -> post(body));
        ObjectNode answer = WireJson.mapper().createObjectNode();
        answer.put("id", request.get("id").asText());
        answer.put("messageId", message.get("messageId").asText());
        return answer;
    }

    private void post(String body) {
        try {
            HttpRequest request = HttpRequest.newBuilder(tap.resolve(path()))
                    .header("Content-Type", "application/json")
                    .header("Accept", "text/event-stream")
                    .header("A2A-Version", "1.0")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            try (InputStream in = http.send(request, HttpResponse.BodyHandlers.ofInputStream()).body()) {
                in.transferTo(OutputStream.nullOutputStream());
            }
        } catch (IOException e) {
            // The tap shows what happened (a 502 when the agent is down); nothing else to tell.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The agent's JSON-RPC path, from its card through the tap, read once. */
    private String path() throws IOException, InterruptedException {
        String p = path;
        if (p != null) {
            return p;
        }
        p = "/";
        HttpResponse<String> card = http.send(HttpRequest.newBuilder(tap.resolve("/.well-known/agent-card.json"))
                .header("A2A-Version", "1.0").timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        if (card.statusCode() == 200) {
            try {
                String cardPath = jsonRpcPath(WireJson.mapper().readTree(card.body()));
                if (cardPath != null) {
                    p = cardPath;
                }
            } catch (IOException e) {
                // a card that cannot be read: "/" it is
            }
        }
        path = p;
        return p;
    }

    /**
     * The path of the card's JSON-RPC interface of protocol version 1.0, or null when it lists none.
     * DEFECT: the first interface was taken, and a card listing HTTP+JSON, gRPC or v0.3 JSON-RPC first
     * (A2A §8.3.2: the order is the agent's preference, any binding may lead) got the composer's v1.0
     * JSON-RPC request sent to the wrong URL.
     */
    static String jsonRpcPath(JsonNode card) {
        for (JsonNode i : card.path("supportedInterfaces")) {
            // PROTOCOL (A2A §3.6): versions compare by Major.Minor, so "1.0" and "1.0.x" are one.
            String version = i.path("protocolVersion").asText("");
            if (!i.path("protocolBinding").asText("").equals("JSONRPC")
                    || !(version.equals("1.0") || version.startsWith("1.0."))) {
                continue;
            }
            try {
                String path = URI.create(i.path("url").asText("")).getRawPath();
                if (path != null && path.startsWith("/")) {
                    return path;
                }
            } catch (IllegalArgumentException e) {
                // an interface URL that is no URI: look on
            }
        }
        return null;
    }
}
