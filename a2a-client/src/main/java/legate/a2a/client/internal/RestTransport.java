package legate.a2a.client.internal;

import static legate.a2a.model.A2aMethods.CANCEL_TASK;
import static legate.a2a.model.A2aMethods.GET_EXTENDED_AGENT_CARD;
import static legate.a2a.model.A2aMethods.GET_TASK;
import static legate.a2a.model.A2aMethods.LIST_TASKS;
import static legate.a2a.model.A2aMethods.SEND_MESSAGE;
import static legate.a2a.model.A2aMethods.SEND_STREAMING_MESSAGE;
import static legate.a2a.model.A2aMethods.SUBSCRIBE_TO_TASK;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import legate.a2a.client.AgentErrorException;
import legate.a2a.client.InvalidResponseException;
import legate.a2a.client.StreamEnd;
import legate.a2a.client.TransportException;
import legate.a2a.model.A2aException;
import legate.a2a.model.ProtoJson;
import legate.wire.json.WireJson;
import lf.a2a.v1.StreamResponse;

/**
 * The A2A HTTP+JSON (REST) binding (A2A §11) from the client's side: each operation is a resource
 * under the interface URL ({@code POST /message:send}, {@code GET /tasks/{id}}, …), the request
 * message the body of a POST or the query of a GET, the result the ProtoJSON body, and the two
 * streaming operations answered by Server-Sent Events each holding one StreamResponse.
 *
 * <p>Errors are google.rpc.Status bodies classified by their ErrorInfo reason
 * ({@link RestErrorBody}). Thread-safe: calls share nothing but the HttpClient.
 */
public final class RestTransport implements Transport {
    // PEER (@a2a-js/sdk 1.2.0): its client sends application/json and accepts either; A2A 1.0.1
    // prefers application/a2a+json, which 1.0.0 servers may not know, so requests stay application/json.
    private static final String JSON = "application/json";
    private static final String ACCEPT = "application/a2a+json, application/json";
    private static final String EVENT_STREAM = "text/event-stream";
    private static final String LAST_EVENT_ID = "Last-Event-ID";

    /** Where each operation lives: its verb and the path after the tenant, the path ids filled from the request. */
    private record Resource(String verb, String path) {
    }

    private static final Map<String, Resource> RESOURCES = Map.of(
            SEND_MESSAGE, new Resource("POST", "/message:send"),
            SEND_STREAMING_MESSAGE, new Resource("POST", "/message:stream"),
            GET_TASK, new Resource("GET", "/tasks/{id}"),
            LIST_TASKS, new Resource("GET", "/tasks"),
            CANCEL_TASK, new Resource("POST", "/tasks/{id}:cancel"),
            // PROTOCOL (A2A §11.3): POST, as the spec's table has it (the proto says GET); PEER
            // (@a2a-js/sdk 1.2.0): its server answers both and its client POSTs.
            SUBSCRIBE_TO_TASK, new Resource("POST", "/tasks/{id}:subscribe"),
            GET_EXTENDED_AGENT_CARD, new Resource("GET", "/extendedAgentCard"));

    private final HttpExchange exchange;
    private final String base;

    /** @param endpoint the interface URL; the REST paths are appended to it (A2A §11.3) */
    public RestTransport(HttpExchange exchange, URI endpoint) {
        this.exchange = exchange;
        String url = endpoint.toString();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Override
    public <B extends Message.Builder> B call(String method, Message request, B result, Duration bound) {
        HttpResponse<byte[]> response = exchange.send(request(method, request, ACCEPT, null).build(), bound);
        JsonNode body = bodyOf(method, response.statusCode(), HttpExchange.mediaType(response), response.body());
        return parse(method, body, result);
    }

    @Override
    public StreamEnd stream(String method, Message request, StreamProgress progress) {
        HttpResponse<InputStream> response = exchange.open(request(method, request, EVENT_STREAM + ", " + ACCEPT,
                progress.lastEventId()).build());
        String type = HttpExchange.mediaType(response);
        progress.open(method.equals(SUBSCRIBE_TO_TASK));
        StreamResponseReader reader = new StreamResponseReader(method, progress, data -> event(method, data));
        try (InputStream body = response.body()) {
            if (type.equals(EVENT_STREAM) && response.statusCode() / 100 == 2) {
                reader.read(body);
                return progress.end();
            }
            // PEER (@a2a-js/sdk 1.2.0): an error before the first event is a plain error body.
            JsonNode node = bodyOf(method, response.statusCode(), type, body.readAllBytes());
            reader.single(parse(method, node, StreamResponse.newBuilder()).build());
            return progress.end();
        } catch (IOException e) {
            throw TransportException.of(e, URI.create(base));
        }
    }

    private HttpRequest.Builder request(String method, Message request, String accept, String lastEventId) {
        Resource r = RESOURCES.get(method);
        if (r == null) {
            throw new IllegalArgumentException("the HTTP+JSON binding has no resource for " + method);
        }
        StringBuilder url = new StringBuilder(base);
        String tenant = stringField(request, "tenant");
        if (!tenant.isEmpty()) {
            // PROTOCOL (A2A §11.3, v1.0.1 §8.3.2): the tenant is the path's first segment.
            url.append('/').append(segment(tenant));
        }
        url.append(r.path().replace("{id}", segment(stringField(request, "id"))));
        HttpRequest.Builder b;
        if (r.verb().equals("GET")) {
            url.append(query(request));
            b = exchange.request(URI.create(url.toString())).GET();
        } else {
            b = exchange.request(URI.create(url.toString())).header("Content-Type", JSON)
                    .POST(HttpRequest.BodyPublishers.ofString(ProtoJson.print(request), StandardCharsets.UTF_8));
        }
        if (lastEventId != null) {
            // PROTOCOL (HTML §9.2.4, Legate's resumable streams extension): the id of the last event
            // received, so that the agent replays the task's events after it instead of the snapshot.
            b.header(LAST_EVENT_ID, lastEventId);
        }
        return b.header("Accept", accept);
    }

    /**
     * PROTOCOL (A2A §11.2, AIP-127): a GET's request fields other than the path's travel as query
     * parameters by their JSON names, with the values as ProtoJSON writes them (enums by name).
     */
    private static String query(Message request) {
        JsonNode json;
        try {
            json = WireJson.mapper().readTree(ProtoJson.print(request));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read back the ProtoJSON of " + request.getDescriptorForType().getName(), e);
        }
        StringBuilder q = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getKey().equals("id") || f.getKey().equals("tenant") || f.getValue().isContainerNode()) {
                continue;
            }
            q.append(q.isEmpty() ? '?' : '&').append(URLEncoder.encode(f.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(f.getValue().asText(), StandardCharsets.UTF_8));
        }
        return q.toString();
    }

    /** One path segment, percent-encoded: an id holding '/' or ':' must not change the path's shape. */
    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String stringField(Message request, String name) {
        FieldDescriptor f = request.getDescriptorForType().findFieldByName(name);
        return f == null ? "" : (String) request.getField(f);
    }

    /** The StreamResponse of one SSE frame's data, or the agent's error (an {@code event: error} frame), thrown. */
    private StreamResponse event(String method, String data) {
        JsonNode node = json(method, 200, EVENT_STREAM, data.getBytes(StandardCharsets.UTF_8));
        AgentErrorException error = RestErrorBody.exception(500, node);
        if (error != null) {
            throw error;
        }
        return parse(method, node, StreamResponse.newBuilder()).build();
    }

    /** A successful answer's body, or the agent's error thrown. */
    private JsonNode bodyOf(String method, int status, String type, byte[] body) {
        JsonNode node = json(method, status, type, body);
        if (status / 100 == 2) {
            return node;
        }
        AgentErrorException error = RestErrorBody.exception(status, node);
        if (error == null) {
            throw new InvalidResponseException(method + " at " + base + " got HTTP " + status + " that is not an A2A"
                    + " error body: " + excerpt(body));
        }
        throw error;
    }

    private JsonNode json(String method, int status, String type, byte[] body) {
        try {
            JsonNode node = body.length == 0 ? null : WireJson.mapper().readTree(body);
            if (node == null || node.isMissingNode()) {
                throw new IOException("empty body");
            }
            return node;
        } catch (IOException e) {
            throw new InvalidResponseException(method + " at " + base + " got HTTP " + status
                    + (type.isEmpty() ? "" : " (" + type + ")") + " that is not JSON: " + excerpt(body));
        }
    }

    private <B extends Message.Builder> B parse(String method, JsonNode result, B builder) {
        try {
            return ProtoJson.read(result, "body", builder);
        } catch (A2aException e) {
            throw new InvalidResponseException(method + " at " + base + " answered with an " + e.getMessage());
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
