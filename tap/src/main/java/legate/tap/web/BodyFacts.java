package legate.tap.web;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import legate.tap.show.ExchangeEvent;

/**
 * What a body says that the inspector's lists need, read from the tree the protocol check already
 * parsed, so the tap parses nothing twice:
 *
 * <ul>
 *   <li>{@code rpc}: a JSON-RPC request's method, or a gRPC call's rpc ({@code gRPC SendMessage});
 *   <li>{@code taskIds}, {@code contextIds}: the ids a request names (a later turn, a GetTask), and a
 *       message answer's context, which the filters match;
 *   <li>{@code tasks}: each task an answer or a frame shows, with its context and state as far as it
 *       says them; a task is listed once an answer shows it.
 * </ul>
 */
record BodyFacts(String rpc, Set<String> taskIds, Set<String> contextIds, List<Shown> tasks) {
    private static final BodyFacts NONE = new BodyFacts(null, Set.of(), Set.of(), List.of());
    /** What a gRPC call's rpc is listed as: {@code gRPC SendMessage}. */
    static final String GRPC = "gRPC ";

    /** A task an answer shows, with what it says of it (null where it says nothing). */
    record Shown(String id, String contextId, String state) {
    }

    /** @param body the event's body or frame data as JSON; null when there is none or it is not JSON */
    static BodyFacts of(ExchangeEvent event, JsonNode body) {
        if (body == null || !body.isObject()) {
            return event instanceof ExchangeEvent.Request r && r.grpcMethod() != null
                    ? new BodyFacts(GRPC + r.grpcMethod(), Set.of(), Set.of(), List.of()) : NONE;
        }
        return switch (event) {
            case ExchangeEvent.Request r -> request(r, body);
            case ExchangeEvent.Response r -> answer(body);
            case ExchangeEvent.Frame f -> answer(body);
            default -> NONE;
        };
    }

    private static BodyFacts request(ExchangeEvent.Request r, JsonNode body) {
        JsonNode method = body.get("method");
        String rpc = r.grpcMethod() != null ? GRPC + r.grpcMethod() : method != null && method.isTextual() ? method.asText() : null;
        // JSON-RPC carries the request in params; HTTP+JSON (A2A §11) and gRPC (§10) send the request
        // message itself.
        JsonNode params = rpc != null && r.grpcMethod() == null ? body.path("params") : body;
        JsonNode message = params.path("message");
        Set<String> taskIds = new LinkedHashSet<>(2);
        Set<String> contextIds = new LinkedHashSet<>(2);
        name(taskIds, message.get("taskId"));
        name(contextIds, message.get("contextId"));
        name(taskIds, params.get("id"));
        return new BodyFacts(rpc, taskIds, contextIds, List.of());
    }

    private static BodyFacts answer(JsonNode answer) {
        JsonNode result = answer.has("result") || answer.has("error") || answer.has("jsonrpc")
                ? answer.path("result") : answer;
        if (!result.isObject()) {
            return NONE;
        }
        List<Shown> tasks = new ArrayList<>(1);
        Set<String> contextIds = new LinkedHashSet<>(1);
        // PROTOCOL (A2A §3.2.3, §4.1): an answer or a stream event is one of Task, Message,
        // TaskStatusUpdateEvent or TaskArtifactUpdateEvent, named by its member; HTTP+JSON's
        // GetTask answers with the Task itself, ListTasks with a page of tasks.
        if (result.has("task")) {
            shown(tasks, result.get("task"), "id");
        } else if (result.has("statusUpdate")) {
            shown(tasks, result.get("statusUpdate"), "taskId");
        } else if (result.has("artifactUpdate")) {
            shown(tasks, result.get("artifactUpdate"), "taskId");
        } else if (result.has("message")) {
            JsonNode m = result.get("message");
            if (text(m.get("taskId")) != null) {
                shown(tasks, m, "taskId");
            } else {
                name(contextIds, m.get("contextId"));
            }
        } else if (text(result.get("id")) != null && result.has("status")) {
            shown(tasks, result, "id");
        } else if (result.path("tasks").isArray()) {
            for (JsonNode t : result.get("tasks")) {
                shown(tasks, t, "id");
            }
        }
        return new BodyFacts(null, Set.of(), contextIds, tasks);
    }

    private static void shown(List<Shown> tasks, JsonNode t, String idField) {
        String id = text(t.get(idField));
        if (id != null) {
            tasks.add(new Shown(id, text(t.get("contextId")), text(t.path("status").get("state"))));
        }
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
