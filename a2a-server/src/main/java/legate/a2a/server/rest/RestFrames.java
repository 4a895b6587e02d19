package legate.a2a.server.rest;

import java.nio.charset.StandardCharsets;
import legate.a2a.model.A2aException;
import legate.a2a.model.ProtoJson;
import legate.a2a.server.http.SseFraming;
import legate.a2a.server.task.Subscription.Signal;
import legate.wire.sse.SseFrames;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The SSE frames of an HTTP+JSON stream. PROTOCOL (A2A §11.7): each event's data is one
 * StreamResponse, with no envelope; PEER (@a2a-js/sdk 1.2.0): an error in mid stream is
 * {@code event: error} holding the google.rpc.Status error body, and an error before the first
 * event is a plain error answer with its HTTP status.
 */
final class RestFrames implements SseFraming {
    static final RestFrames INSTANCE = new RestFrames();

    private RestFrames() {
    }

    /** {@code id: <seq>} (the resumable-streams extension, README "Tasks that last"), then one data line. */
    @Override
    public byte[] frame(Signal.Event e) {
        StringBuilder sb = new StringBuilder(1024);
        if (e.seq() > 0) {
            sb.append("id: ").append(e.seq()).append('\n');
        }
        // Printed JSON holds no raw line break (strings escape them), so the payload is one data line.
        sb.append("data: ");
        ProtoJson.printTo(e.event(), sb);
        return sb.append("\n\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] errorFrame(A2aException error) {
        return SseFrames.event("error", RestErrors.body(error, RestErrors.httpStatus(error.error())));
    }

    @Override
    public void refuse(Response response, Callback done, A2aException error) {
        int status = RestErrors.httpStatus(error.error());
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, RestHandler.JSON);
        Content.Sink.write(response, true, RestErrors.body(error, status), done);
    }
}
