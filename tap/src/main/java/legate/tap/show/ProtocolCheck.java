package legate.tap.show;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.wire.json.WireJson;

/**
 * The tap's protocol checker: passes every event on to the listeners behind it and, right after an
 * event that shows a {@link Problem}, a {@link Flagged} event saying what was seen. So the console,
 * the log and the web page flag the same problems, found once.
 *
 * <p>Runs on the listener thread like any listener, never on the forwarding path. It reads bodies
 * and frames as JSON trees only to check them; a body that is not JSON is not checked. What it
 * remembers is bounded: the open exchanges (their request's id) and the tasks seen ending.
 */
public final class ProtocolCheck implements ExchangeListener {
    private static final int MAX_REMEMBERED = 10_000;
    private static final Set<String> TERMINAL = Set.of("TASK_STATE_COMPLETED", "TASK_STATE_FAILED",
            "TASK_STATE_CANCELED", "TASK_STATE_REJECTED");
    private static final String ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";
    /** NOT_FOUND (5) and FAILED_PRECONDITION (9): on A2A's service, only A2A errors end a call with these. */
    private static final Set<String> A2A_ONLY_GRPC_CODES = Set.of("5", "9");

    private final List<ExchangeListener> listeners;
    private final Map<Long, Open> open = bounded();
    private final Map<String, String> endedTasks = bounded();

    /** What the check remembers of an exchange until its response has passed. */
    private static final class Open {
        JsonNode id;
        int events;
        String terminal;
    }

    /** @param listeners given every event, then the problems it shows, in this order */
    public ProtocolCheck(List<ExchangeListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void on(ExchangeEvent event) {
        JsonNode body = body(event);
        pass(event, body);
        List<Flagged> flags = new ArrayList<>(0);
        check(event, body, flags);
        for (Flagged f : flags) {
            pass(f, null);
        }
    }

    /**
     * The event's body, or its frame's data, as JSON: null when it has none, it is not JSON, or
     * (a response) it was cut short, so that only a whole body is ever judged.
     */
    public static JsonNode body(ExchangeEvent event) {
        return switch (event) {
            case Request r -> json(r.body());
            case Response r -> r.body().length == r.bodyBytes() ? json(r.body()) : null;
            case Frame f -> json(f.event().data().getBytes(StandardCharsets.UTF_8));
            default -> null;
        };
    }

    @Override
    public void caughtUp() {
        for (ExchangeListener l : listeners) {
            l.caughtUp();
        }
    }

    private void pass(ExchangeEvent event, JsonNode body) {
        for (ExchangeListener l : listeners) {
            try {
                l.on(event, body);
            } catch (RuntimeException e) {
                System.err.println("legate tap: a listener failed on exchange #" + event.exchange() + ": " + e);
            }
        }
    }

    private void check(ExchangeEvent event, JsonNode body, List<Flagged> flags) {
        switch (event) {
            case Request r -> request(r, body, flags);
            case Response r -> {
                Open o = open.remove(r.exchange());
                grpcStatus(r, r.headers(), flags);
                if (r.body().length == r.bodyBytes()) {
                    answer(r, o, body, flags);
                }
            }
            case StreamOpened s -> {
                // the stream's frames are checked one by one
            }
            case Frame f -> frame(f, open.get(f.exchange()), body, flags);
            case StreamClosed c -> {
                open.remove(c.exchange());
                grpcStatus(c, c.trailers(), flags);
            }
            case Refused r -> open.remove(r.exchange());
            case Flagged f -> {
                // the check's own output
            }
        }
    }

    private void request(Request r, JsonNode body, List<Flagged> flags) {
        // PROTOCOL (A2A §3.6.1): the version may come as a query parameter when the header is missing;
        // on gRPC (A2A §10) the service parameters are metadata, which the tap shows as headers.
        boolean versioned = r.headers().stream().anyMatch(h -> h.name().equalsIgnoreCase("A2A-Version")
                && !h.value().isBlank()) || r.target().contains("A2A-Version=");
        if (body == null || !body.isObject() || !body.has("method")) {
            if (!versioned && (restOperation(r.target()) || r.grpcMethod() != null)) {
                flags.add(flag(r, Problem.MISSING_A2A_VERSION, r.method() + " " + r.target() + " was sent without it"));
            }
            return;
        }
        // PROTOCOL (A2A §3.6): an absent A2A-Version means 0.3, so a v0.3 request (its methods are
        // slash-separated, message/send, tasks/get; v1.0's are PascalCase) rightly sends none.
        if (!versioned && !v03Method(body.path("method").asText())) {
            flags.add(flag(r, Problem.MISSING_A2A_VERSION, body.path("method").asText() + " was sent without it"));
        }
        Open o = new Open();
        o.id = body.get("id");
        open.put(r.exchange(), o);
    }

    /** Whether a JSON-RPC method name is v0.3's ({@code message/send}, {@code tasks/pushNotificationConfig/set}). */
    static boolean v03Method(String method) {
        return method.contains("/");
    }

    /**
     * Whether a request target is an operation of the HTTP+JSON binding (A2A §11.3), wherever the
     * interface URL puts it: its path ends in one of the binding's resources. The card fetch is not one.
     */
    static boolean restOperation(String target) {
        String path = target.split("\\?", 2)[0];
        return path.endsWith("/message:send") || path.endsWith("/message:stream") || path.endsWith(":cancel")
                || path.endsWith(":subscribe") || path.endsWith("/tasks") || path.matches(".*/tasks/[^/]+(/pushNotificationConfigs(/[^/]+)?)?")
                || path.endsWith("/extendedAgentCard");
    }

    /**
     * A gRPC call's end: a failing status must carry its error's ErrorInfo. PROTOCOL (A2A §10.6): an
     * A2A error ends the call with a google.rpc.Status whose details hold a google.rpc.ErrorInfo
     * with reason and domain. A status whose code only an A2A error gives on A2A's service
     * (NOT_FOUND: TaskNotFound; FAILED_PRECONDITION: TaskNotCancelable and the others of §5.4) is
     * held to it; a code that transport and servers give too (CANCELLED, UNAVAILABLE, INTERNAL,
     * UNIMPLEMENTED for an rpc a server lacks) is held to it only when it has details.
     */
    private static void grpcStatus(ExchangeEvent e, List<Header> fields, List<Flagged> flags) {
        GrpcStatus status = GrpcStatus.in(fields);
        if (status == null || status.ok()) {
            return;
        }
        String why;
        if (status.details() == null) {
            why = A2A_ONLY_GRPC_CODES.contains(status.code())
                    ? "grpc-status " + status.summary() + " has no " + GrpcStatus.DETAILS + " (expected an ErrorInfo)" : null;
        } else {
            JsonNode details = json(status.details().getBytes(StandardCharsets.UTF_8));
            if (details == null || !details.isObject()) {
                why = "grpc-status " + status.code() + ": " + GrpcStatus.DETAILS + " is not a google.rpc.Status";
            } else {
                // google.rpc.Status in ProtoJSON: details may be left out when empty.
                String problem = details.has("details") ? detailsProblem(details.get("details")) : null;
                boolean errorInfo = false;
                for (JsonNode d : details.path("details")) {
                    errorInfo |= d.path("@type").asText().equals(ERROR_INFO_TYPE);
                }
                why = problem != null ? "grpc-status " + status.code() + problem
                        : !errorInfo && A2A_ONLY_GRPC_CODES.contains(status.code())
                        ? "grpc-status " + status.summary() + ": its details hold no " + ERROR_INFO_TYPE : null;
            }
        }
        if (why != null) {
            flags.add(flag(e, Problem.ERROR_WITHOUT_ERROR_INFO, why));
        }
    }

    private void frame(Frame f, Open o, JsonNode data, List<Flagged> flags) {
        if (data == null || !data.isObject()) {
            return;
        }
        if (o == null) {
            o = new Open();
            open.put(f.exchange(), o);
        }
        answer(f, o, data, flags);
        JsonNode result = data.has("result") ? data.get("result") : data;
        if (data.has("error") || !result.isObject()) {
            return;
        }
        String kind = result.fieldNames().hasNext() ? result.fieldNames().next() : "";
        if (o.events++ == 0 && !kind.equals("task") && !kind.equals("message")) {
            flags.add(flag(f, Problem.FIRST_EVENT_NOT_TASK_OR_MESSAGE,
                    "frame " + f.index() + " is " + (kind.isEmpty() ? "empty" : "a " + kind)));
        }
        JsonNode body = result.path(kind);
        String taskId = kind.equals("task") ? body.path("id").asText(null) : body.path("taskId").asText(null);
        String state = body.path("status").path("state").asText("");
        if (o.terminal != null) {
            flags.add(flag(f, Problem.EVENT_AFTER_TERMINAL_STATE, "frame " + f.index() + " (" + kind
                    + ") came after " + o.terminal));
        } else if (taskId != null && endedTasks.containsKey(taskId) && !kind.equals("task")) {
            // A Task snapshot of an ended task is a reading of it; an update is a change, which must not come.
            flags.add(flag(f, Problem.EVENT_AFTER_TERMINAL_STATE, "task " + taskId + " had ended "
                    + endedTasks.get(taskId) + "; frame " + f.index() + " is a " + kind));
        }
        if (TERMINAL.contains(state)) {
            o.terminal = state;
            if (taskId != null) {
                endedTasks.put(taskId, state);
            }
        }
    }

    /** The checks every answer gets, whole body or frame: its id, and the shape of an error. */
    private static void answer(ExchangeEvent e, Open o, JsonNode answer, List<Flagged> flags) {
        if (answer != null && answer.isObject() && !answer.has("jsonrpc") && answer.path("error").isObject()) {
            String why = restErrorInfoMissing(answer.get("error"));
            if (why != null) {
                flags.add(flag(e, Problem.ERROR_WITHOUT_ERROR_INFO, why));
            }
            return;
        }
        if (answer == null || !answer.isObject() || !answer.has("jsonrpc")) {
            return;
        }
        JsonNode id = answer.get("id");
        // An answer to a request whose id could not be read carries null; nothing to compare then.
        if (o != null && o.id != null && id != null && !id.isNull() && !id.equals(o.id)) {
            flags.add(flag(e, Problem.ID_MISMATCH, "request id " + o.id + ", answer id " + id));
        } else if (o != null && o.id != null && !o.id.isNull() && (id == null || id.isNull())
                && !answer.has("error")) {
            flags.add(flag(e, Problem.ID_MISMATCH, "request id " + o.id + ", answer without an id"));
        }
        JsonNode error = answer.get("error");
        if (error != null && error.isObject()) {
            String why = errorInfoMissing(error);
            if (why != null) {
                flags.add(flag(e, Problem.ERROR_WITHOUT_ERROR_INFO, why));
            }
        }
    }

    /**
     * Why an error does not have the ErrorInfo shape, or null when it has. PROTOCOL (A2A §9.5): an
     * A2A error (-32001..-32099) carries, in {@code data}, an array of typed details holding a
     * google.rpc.ErrorInfo with its reason and domain; any other error's {@code data}, when present,
     * is such an array too.
     */
    static String errorInfoMissing(JsonNode error) {
        int code = error.path("code").asInt(0);
        JsonNode data = error.get("data");
        boolean a2a = code <= -32001 && code >= -32099;
        if (data == null || data.isNull()) {
            return a2a ? "error " + code + " has no data (expected [ErrorInfo])" : null;
        }
        if (!data.isArray()) {
            return "error " + code + ": data is " + data.getNodeType().name().toLowerCase(Locale.ROOT) + ", not an array of details";
        }
        boolean errorInfo = false;
        for (JsonNode d : data) {
            if (!d.isObject() || !d.path("@type").isTextual()) {
                return "error " + code + ": a detail in data has no @type";
            }
            if (d.path("@type").asText().equals(ERROR_INFO_TYPE)) {
                if (!d.path("reason").isTextual() || !d.path("domain").isTextual()) {
                    return "error " + code + ": its ErrorInfo lacks reason or domain";
                }
                errorInfo = true;
            }
        }
        return a2a && !errorInfo ? "error " + code + ": data holds no " + ERROR_INFO_TYPE : null;
    }

    /**
     * Why an HTTP+JSON error body lacks its shape, or null when it has it. PROTOCOL (A2A §11.6): a
     * google.rpc.Status whose {@code details} is an array of typed details; an ErrorInfo among
     * them names its reason and domain. (A non-A2A error, such as an unknown path, may have none.)
     */
    static String restErrorInfoMissing(JsonNode error) {
        String why = detailsProblem(error.get("details"));
        return why == null ? null : "REST error " + error.path("status").asText("?") + why;
    }

    /**
     * What is wrong with a google.rpc.Status's {@code details}, worded to follow the error's name, or
     * null: they must be an array of typed details, and an ErrorInfo among them names its reason
     * and domain.
     */
    private static String detailsProblem(JsonNode details) {
        if (details == null || !details.isArray()) {
            return " has no details array (expected [ErrorInfo])";
        }
        for (JsonNode d : details) {
            if (!d.isObject() || !d.path("@type").isTextual()) {
                return ": a detail has no @type";
            }
            if (d.path("@type").asText().equals(ERROR_INFO_TYPE)
                    && (!d.path("reason").isTextual() || !d.path("domain").isTextual())) {
                return ": its ErrorInfo lacks reason or domain";
            }
        }
        return null;
    }

    private static Flagged flag(ExchangeEvent e, Problem problem, String detail) {
        return new Flagged(e.exchange(), e.at(), problem, detail);
    }

    private static JsonNode json(byte[] bytes) {
        if (bytes.length == 0) {
            return null;
        }
        try {
            return WireJson.mapper().readTree(bytes);
        } catch (IOException e) {
            return null;
        }
    }

    private static <K, V> Map<K, V> bounded() {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > MAX_REMEMBERED;
            }
        };
    }
}
