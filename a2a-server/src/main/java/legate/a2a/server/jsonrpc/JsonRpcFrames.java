package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import legate.a2a.model.A2aException;
import legate.a2a.server.http.SseFraming;
import legate.a2a.server.task.Subscription.Signal;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.sse.SseFrames;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The SSE frames of a JSON-RPC stream. PROTOCOL (A2A §9.4.2): each SSE event is one complete
 * JSON-RPC response with the request's id, its result one StreamResponse.
 */
final class JsonRpcFrames implements SseFraming {
    private static final String DATA = "data: ";
    private static final String ID = "id: ";

    private final JsonNode id;
    private final String idJson;
    private final JsonRpcDialect dialect;

    JsonRpcFrames(JsonNode id, JsonRpcDialect dialect) {
        this.id = id;
        this.dialect = dialect;
        this.idJson = JsonRpcCodec.idJson(id);
    }

    /**
     * The frame's bytes, built in one buffer: printed JSON never holds a raw line break (JSON
     * escapes them inside strings), so the payload is one data line. This path was a fifth of the
     * bytes a stream allocated when it went through a String and SseFrames' line splitting.
     *
     * <p>A task event's frame opens with {@code id: <seq>}, its sequence number in the task's log:
     * the same event has the same id on every stream, and a client cut off sends the last one it
     * read back as {@code Last-Event-ID} to resume (the resumable-streams extension, README "Tasks
     * that last"). A Message answer belongs to no task's log and has no id.
     */
    @Override
    public byte[] frame(Signal.Event e) {
        StringBuilder sb = new StringBuilder(1024);
        if (e.seq() > 0) {
            sb.append(ID).append(e.seq()).append('\n');
        }
        int idLine = sb.length();
        int payload = idLine + DATA.length();
        JsonRpcCodec.openResult(idJson, sb.append(DATA));
        dialect.printEvent(e.event(), sb);
        JsonRpcCodec.closeEnvelope(sb).append("\n\n");
        for (int i = payload, end = sb.length() - 2; i < end; i++) {
            char c = sb.charAt(i);
            if (c == '\n' || c == '\r') {
                byte[] id = sb.substring(0, idLine).getBytes(StandardCharsets.UTF_8);
                byte[] data = SseFrames.data(sb.substring(payload, end));
                byte[] joined = Arrays.copyOf(id, id.length + data.length);
                System.arraycopy(data, 0, joined, id.length, data.length);
                return joined;
            }
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] errorFrame(A2aException error) {
        return SseFrames.event("error", dialect.errorJson(id, error.error(), error.getMessage()));
    }

    @Override
    public void refuse(Response response, Callback done, A2aException error) {
        JsonRpcHandler.reply(response, done, 200, dialect.errorJson(id, error.error(), error.getMessage()));
    }
}
