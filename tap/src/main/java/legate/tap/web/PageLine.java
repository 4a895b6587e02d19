package legate.tap.web;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import legate.tap.show.EncodedLine;
import legate.tap.show.ExchangeEvent;
import legate.wire.json.WireJson;

/**
 * What the page's live feed sends of an event: its line without headers and body
 * ({@link EncodedLine#writeSummary}) and, in {@code "facts"}, what the body says that the exchange
 * list, its filters and the task and context lists need, read here once from the tree the protocol
 * check already parsed:
 *
 * <ul>
 *   <li>{@code rpc}: a JSON-RPC request's method;
 *   <li>{@code taskIds}, {@code contextIds}: the ids a request names (a later turn, a GetTask), and a
 *       message answer's context, which the filters match;
 *   <li>{@code tasks}: each task an answer or a frame shows, {@code id}, {@code contextId} and
 *       {@code state} as far as it says them; the page lists a task once an answer shows it.
 * </ul>
 *
 * <p>The profile of the page under load put parsing every line and body, and taking their bytes in,
 * at most of the browser's cost, which on two cores it took from the tap and the agent. A task's,
 * a context's and an exchange's views fetch their exchanges whole ({@code /exchange?n=}) when drawn.
 */
final class PageLine {
    private PageLine() {
    }

    /** What the live feed sends: the summary with its facts. */
    static byte[] of(EncodedLine line, JsonNode body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(line.bytes().length / 4 + 128);
        try {
            line.writeSummary(out, facts(line.event(), body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The whole line with its facts: what an import answers, so the page indexes a file as it does the feed. */
    static byte[] whole(EncodedLine line, JsonNode body) {
        byte[] bytes = line.bytes();
        byte[] facts = facts(line.event(), body);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + facts.length);
        out.write(bytes, 0, bytes.length - 1);
        out.writeBytes(facts);
        out.write('}');
        return out.toByteArray();
    }

    /** {@code ,"facts":{...}}, or nothing when the body says none. */
    static byte[] facts(ExchangeEvent event, JsonNode body) {
        if (body == null || !body.isObject()) {
            return new byte[0];
        }
        Facts f = new Facts();
        switch (event) {
            case ExchangeEvent.Request r -> f.request(body);
            case ExchangeEvent.Response r -> f.answer(body);
            case ExchangeEvent.Frame fr -> f.answer(body);
            default -> {
                return new byte[0];
            }
        }
        return f.isEmpty() ? new byte[0] : f.encode();
    }

    /** A task an answer shows, with what it says of it. */
    private record Shown(String id, String contextId, String state) {
    }

    private static final class Facts {
        String rpc;
        final Set<String> taskIds = new LinkedHashSet<>(2);
        final Set<String> contextIds = new LinkedHashSet<>(2);
        final List<Shown> tasks = new ArrayList<>(1);

        void request(JsonNode body) {
            JsonNode method = body.get("method");
            rpc = method != null && method.isTextual() ? method.asText() : null;
            // JSON-RPC carries the request in params; HTTP+JSON (A2A §11) sends the request message as the body.
            JsonNode params = rpc != null ? body.path("params") : body;
            JsonNode message = params.path("message");
            name(taskIds, message.get("taskId"));
            name(contextIds, message.get("contextId"));
            name(taskIds, params.get("id"));
        }

        void answer(JsonNode answer) {
            JsonNode result = answer.has("result") || answer.has("error") || answer.has("jsonrpc")
                    ? answer.path("result") : answer;
            if (!result.isObject()) {
                return;
            }
            // PROTOCOL (A2A §3.2.3, §4.1): an answer or a stream event is one of Task, Message,
            // TaskStatusUpdateEvent or TaskArtifactUpdateEvent, named by its member; HTTP+JSON's
            // GetTask answers with the Task itself, ListTasks with a page of tasks.
            if (result.has("task")) {
                task(result.get("task"), "id");
            } else if (result.has("statusUpdate")) {
                task(result.get("statusUpdate"), "taskId");
            } else if (result.has("artifactUpdate")) {
                task(result.get("artifactUpdate"), "taskId");
            } else if (result.has("message")) {
                JsonNode m = result.get("message");
                if (text(m.get("taskId")) != null) {
                    task(m, "taskId");
                } else {
                    name(contextIds, m.get("contextId"));
                }
            } else if (text(result.get("id")) != null && result.has("status")) {
                task(result, "id");
            } else if (result.path("tasks").isArray()) {
                for (JsonNode t : result.get("tasks")) {
                    task(t, "id");
                }
            }
        }

        private void task(JsonNode t, String idField) {
            String id = text(t.get(idField));
            if (id != null) {
                tasks.add(new Shown(id, text(t.get("contextId")), text(t.path("status").get("state"))));
            }
        }

        boolean isEmpty() {
            return rpc == null && taskIds.isEmpty() && contextIds.isEmpty() && tasks.isEmpty();
        }

        byte[] encode() {
            ByteArrayOutputStream out = new ByteArrayOutputStream(128);
            out.writeBytes(",\"facts\":".getBytes(StandardCharsets.US_ASCII));
            try (JsonGenerator g = WireJson.mapper().getFactory().createGenerator(out)) {
                g.writeStartObject();
                if (rpc != null) {
                    g.writeStringField("rpc", rpc);
                }
                strings(g, "taskIds", taskIds);
                strings(g, "contextIds", contextIds);
                if (!tasks.isEmpty()) {
                    g.writeArrayFieldStart("tasks");
                    for (Shown t : tasks) {
                        g.writeStartObject();
                        g.writeStringField("id", t.id());
                        if (t.contextId() != null) {
                            g.writeStringField("contextId", t.contextId());
                        }
                        if (t.state() != null) {
                            g.writeStringField("state", t.state());
                        }
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toByteArray();
        }

        private static void strings(JsonGenerator g, String name, Set<String> values) throws IOException {
            if (values.isEmpty()) {
                return;
            }
            g.writeArrayFieldStart(name);
            for (String v : values) {
                g.writeString(v);
            }
            g.writeEndArray();
        }

        private static void name(Set<String> ids, JsonNode id) {
            String s = text(id);
            if (s != null) {
                ids.add(s);
            }
        }

        private static String text(JsonNode n) {
            return n != null && n.isTextual() && !n.asText().isEmpty() ? n.asText() : null;
        }
    }
}
