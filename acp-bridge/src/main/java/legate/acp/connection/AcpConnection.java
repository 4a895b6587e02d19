package legate.acp.connection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.LongNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import legate.wire.json.WireJson;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcError;
import legate.wire.jsonrpc.JsonRpcMessage;

/**
 * ACP's transport as the client runs it: newline-delimited JSON-RPC 2.0 over an agent's stdin and
 * stdout, with request ids and futures, agent-to-client requests dispatched to a
 * {@link ClientHandler}, and stderr drained.
 *
 * <p>One reader thread owns stdout (docs/peers.md §6, a robust ACP client): a line that is not JSON is
 * reported and skipped; updates are delivered in arrival order; when the process exits or stdout
 * closes, every pending request fails at once with {@link ConnectionClosed}. Requests carry no
 * timeout of their own: a prompt may run for an hour, and a handshake's caller bounds its wait.
 */
public final class AcpConnection {
    /** What the connection noticed that is worth a log line; all methods may be called from any thread. */
    public interface Observer {
        default void unreadableLine(String reason, String excerpt) {
        }

        default void stderrLine(String line) {
        }
    }

    private static final ObjectMapper JSON = WireJson.mapper();

    private final AdapterProcess process;
    private final ClientHandler handler;
    private final Observer observer;
    private final int maxLineChars;
    private final OutputStream stdin;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private volatile StderrTail stderr;
    private final CompletableFuture<Void> stdoutDone = new CompletableFuture<>();
    private final CompletableFuture<ConnectionClosed> closed = new CompletableFuture<>();

    private AcpConnection(AdapterProcess process, ClientHandler handler, Observer observer, int maxLineChars) {
        this.process = process;
        this.handler = handler;
        this.observer = observer;
        this.maxLineChars = maxLineChars;
        this.stdin = process.process().getOutputStream();
    }

    /** Starts reading the agent's stdout and stderr. */
    public static AcpConnection open(AdapterProcess process, ClientHandler handler, Observer observer, int maxLineChars) {
        AcpConnection c = new AcpConnection(process, handler, observer, maxLineChars);
        String name = "acp-" + process.command().program() + "-" + process.pid();
        c.stderr = StderrTail.drain(process.process().getErrorStream(), name + "-err", c.observer::stderrLine);
        Thread.ofPlatform().daemon().name(name + "-out").start(c::readStdout);
        process.exited().thenRunAsync(() -> {
            // Lines the agent wrote just before exiting are still in the pipe: let the reader take them
            // first, but do not wait on a grandchild that holds the pipe open.
            try {
                c.stdoutDone.get(1, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // closing anyway
            }
            c.close();
        });
        return c;
    }

    public AdapterProcess process() {
        return process;
    }

    /** Sends a request; the future completes with its result, or fails with {@link AcpException} or {@link ConnectionClosed}. */
    public CompletableFuture<JsonNode> request(String method, JsonNode params) {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        if (closed.isDone()) {
            pending.remove(id);
            answer.completeExceptionally(closed.join());
            return answer;
        }
        try {
            write(new JsonRpcMessage.Request(LongNode.valueOf(id), method, params));
        } catch (IOException e) {
            pending.remove(id);
            answer.completeExceptionally(closedNow());
        }
        return answer;
    }

    /** Sends a notification (no answer comes back). */
    public void notify(String method, JsonNode params) throws IOException {
        write(new JsonRpcMessage.Request(null, method, params));
    }

    /** Completes once, when the connection is over; the value is what pending requests failed with. */
    public CompletableFuture<ConnectionClosed> closed() {
        return closed;
    }

    /** The agent's last lines on stderr, oldest first. */
    public List<String> stderrTail() {
        return stderr == null ? List.of() : stderr.lines();
    }

    private void write(JsonRpcMessage msg) throws IOException {
        byte[] line = (JsonRpcCodec.write(msg) + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (stdin) {
            stdin.write(line);
            stdin.flush();
        }
    }

    private void readStdout() {
        LineReader lines = new LineReader(process.process().getInputStream(), maxLineChars);
        try {
            while (true) {
                String line;
                try {
                    line = lines.readLine();
                } catch (LineReader.LineTooLong e) {
                    observer.unreadableLine(e.getMessage(), "");
                    continue;
                }
                if (line == null) {
                    break;
                }
                if (!line.isBlank()) {
                    dispatch(line);
                }
            }
        } catch (IOException e) {
            // the pipe broke: the same as the end of the stream
        } finally {
            stdoutDone.complete(null);
            close();
        }
    }

    private void dispatch(String line) {
        JsonNode msg;
        try {
            msg = JSON.readTree(line);
        } catch (IOException e) {
            // PROTOCOL (ACP): stdout carries only messages, but agents print stray lines; skip, never stop reading.
            observer.unreadableLine("not JSON", excerpt(line));
            return;
        }
        if (msg == null || !msg.isObject()) {
            observer.unreadableLine("not a JSON-RPC object", excerpt(line));
            return;
        }
        JsonNode method = msg.get("method");
        JsonNode id = msg.get("id");
        if (method != null && method.isTextual()) {
            if (id == null || id.isNull()) {
                deliver(method.asText(), msg.get("params"));
            } else {
                Thread.ofVirtual().name("acp-request-" + id).start(() -> answer(id, method.asText(), msg.get("params")));
            }
        } else if (id != null && (msg.has("result") || msg.has("error"))) {
            complete(id, msg);
        } else {
            observer.unreadableLine("neither a request nor a response", excerpt(line));
        }
    }

    private void deliver(String method, JsonNode params) {
        try {
            handler.onNotification(method, params);
        } catch (RuntimeException e) {
            observer.unreadableLine("handling " + method + " failed: " + e, "");
        }
    }

    private void answer(JsonNode id, String method, JsonNode params) {
        JsonRpcMessage.Response reply;
        try {
            // PROTOCOL (JSON-RPC 2.0 §5): a response echoes the request's id as it came, string or number.
            reply = new JsonRpcMessage.Response(id, handler.onRequest(method, params), null);
        } catch (AcpException e) {
            reply = new JsonRpcMessage.Response(id, null, e.error());
        } catch (RuntimeException e) {
            reply = new JsonRpcMessage.Response(id, null,
                    new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "Internal error: " + e, null));
        }
        try {
            write(reply);
        } catch (IOException e) {
            // the agent is gone; its pending requests fail through close()
        }
    }

    private void complete(JsonNode id, JsonNode msg) {
        CompletableFuture<JsonNode> waiting = id.canConvertToLong() ? pending.remove(id.asLong()) : null;
        if (waiting == null) {
            observer.unreadableLine("a response to no pending request (id " + id + ")", "");
            return;
        }
        try {
            var response = JsonRpcCodec.toResponse(msg);
            if (response.isError()) {
                waiting.completeExceptionally(new AcpException(response.error()));
            } else {
                waiting.complete(response.result());
            }
        } catch (legate.wire.jsonrpc.JsonRpcException e) {
            waiting.completeExceptionally(new AcpException(JsonRpcError.INTERNAL_ERROR, e.getMessage()));
        }
    }

    /** Fails every pending request; safe to call more than once and from any thread. */
    public void close() {
        closed.complete(closedNow());
        ConnectionClosed why = closed.join();
        for (Long id : List.copyOf(pending.keySet())) {
            CompletableFuture<JsonNode> f = pending.remove(id);
            if (f != null) {
                f.completeExceptionally(why);
            }
        }
    }

    private ConnectionClosed closedNow() {
        if (closed.isDone()) {
            return closed.join();
        }
        Integer status = null;
        try {
            status = process.exited().get(200, TimeUnit.MILLISECONDS);
        } catch (Exception ignored) {
            // still running: it closed stdout or its stdin broke
        }
        return new ConnectionClosed(process.command().program(), status, stderrTail());
    }

    private static String excerpt(String line) {
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
