package legate.a2a.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import legate.a2a.client.InvalidResponseException;
import legate.a2a.client.StreamEnd;
import legate.a2a.client.TransportException;
import legate.a2a.model.A2aException;
import legate.a2a.model.A2aMethods;
import legate.a2a.model.ProtoJson;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcException;
import legate.wire.jsonrpc.JsonRpcMessage;
import lf.a2a.v1.StreamResponse;

/**
 * The A2A JSON-RPC 2.0 binding (A2A §9) from the client's side: each call is one HTTP POST to the
 * interface URL, answered by one JSON-RPC response or, for the two streaming methods, by Server-Sent
 * Events each holding one.
 *
 * <p>PEER (@a2a-js/sdk 1.2.0): errors arrive with HTTP 200, 400 or 500, so the body is read as a
 * JSON-RPC response whatever the status, and only a body that is not one is an invalid response.
 * Thread-safe: calls share nothing but the HttpClient and the id counter.
 */
public final class JsonRpcTransport implements Transport {
    private static final String JSON = "application/json";
    private static final String EVENT_STREAM = "text/event-stream";
    private static final String LAST_EVENT_ID = "Last-Event-ID";

    private final HttpExchange exchange;
    private final URI endpoint;
    private final AtomicLong ids = new AtomicLong();

    public JsonRpcTransport(HttpExchange exchange, URI endpoint) {
        this.exchange = exchange;
        this.endpoint = endpoint;
    }

    @Override
    public <B extends Message.Builder> B call(String method, Message request, B result, Duration bound) {
        HttpResponse<byte[]> response = exchange.send(post(method, request, JSON).build(), bound);
        JsonNode node = resultOf(method, response.statusCode(), HttpExchange.mediaType(response), response.body());
        if (result instanceof Empty.Builder && (node == null || node.isNull())) {
            // PROTOCOL (A2A §9.4): an operation answering google.protobuf.Empty has the result null.
            return result;
        }
        return parse(method, node, result);
    }

    @Override
    public StreamEnd stream(String method, Message request, StreamProgress progress) {
        HttpRequest.Builder post = post(method, request, EVENT_STREAM + ", " + JSON);
        if (progress.lastEventId() != null) {
            // PROTOCOL (HTML §9.2.4, Legate's resumable streams extension): the id of the last event
            // received, so that the agent replays the task's events after it instead of the snapshot.
            post.header(LAST_EVENT_ID, progress.lastEventId());
        }
        HttpResponse<InputStream> response = exchange.open(post.build());
        String type = HttpExchange.mediaType(response);
        progress.open(method.equals(A2aMethods.SUBSCRIBE_TO_TASK));
        StreamResponseReader reader = new StreamResponseReader(method, progress, frame -> event(method, frame));
        try (InputStream body = response.body()) {
            if (type.equals(EVENT_STREAM)) {
                reader.read(body);
                return progress.end();
            }
            // PROTOCOL (A2A §9.4.2) and PEER (@a2a-js/sdk 1.2.0): an error before the first event
            // comes back as a plain JSON-RPC body, not as a stream; branch on the Content-Type.
            JsonNode node = resultOf(method, response.statusCode(), type, body.readAllBytes());
            reader.single(parse(method, node, StreamResponse.newBuilder()).build());
            return progress.end();
        } catch (IOException e) {
            throw TransportException.of(e, endpoint);
        }
    }

    private HttpRequest.Builder post(String method, Message params, String accept) {
        StringBuilder body = JsonRpcCodec.openRequest(ids.incrementAndGet(), method, new StringBuilder(256));
        ProtoJson.printTo(params, body);
        JsonRpcCodec.closeEnvelope(body);
        // PROTOCOL (A2A §9.1): JSON-RPC requests are application/json. PEER (@a2a-js/sdk 1.2.0):
        // application/a2a+json is refused on JSON-RPC with -32005, so it is never sent here.
        return exchange.request(endpoint)
                .header("Content-Type", JSON)
                .header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    }

    /** The StreamResponse of one SSE frame's data, or the agent's error, thrown. */
    private StreamResponse event(String method, String data) {
        JsonNode node = resultOf(method, 200, EVENT_STREAM, data.getBytes(StandardCharsets.UTF_8));
        return parse(method, node, StreamResponse.newBuilder()).build();
    }

    private JsonNode resultOf(String method, int status, String type, byte[] body) {
        JsonRpcMessage.Response response;
        try {
            response = JsonRpcCodec.toResponse(JsonRpcCodec.parseTree(body));
        } catch (JsonRpcException e) {
            throw new InvalidResponseException(method + " at " + endpoint + " got HTTP " + status
                    + (type.isEmpty() ? "" : " (" + type + ")") + " that is not a JSON-RPC response: "
                    + excerpt(body));
        }
        if (response.isError()) {
            throw ErrorData.exception(response.error());
        }
        return response.result();
    }

    private <B extends Message.Builder> B parse(String method, JsonNode result, B builder) {
        try {
            return ProtoJson.read(result, "result", builder);
        } catch (A2aException e) {
            throw new InvalidResponseException(method + " at " + endpoint + " answered with an "
                    + e.getMessage());
        }
    }

    private static String excerpt(byte[] body) {
        if (body.length == 0) {
            return "(empty body)";
        }
        String text = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8)
                .replaceAll("\\s+", " ").strip();
        return body.length > 200 ? text + "…" : text;
    }
}
