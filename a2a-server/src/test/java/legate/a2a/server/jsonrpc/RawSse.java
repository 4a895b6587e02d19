package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import legate.wire.json.WireJson;

/**
 * One JSON-RPC call over a raw loopback socket, its answer read as the bytes arrive: the status,
 * the content type, and either a JSON body or SSE frames one at a time, each with its own
 * {@code id:} line (or none). HTTP/1.0, so the body is not chunked and ends when the server
 * closes; closing this closes the socket, which is how a test cuts a stream. Every read waits 10 s
 * at most.
 */
final class RawSse implements AutoCloseable {
    /** One SSE frame: its id line's value (null when it has none) and its data as JSON. */
    record Frame(String id, JsonNode data) {
        JsonNode result() {
            return data.get("result");
        }

        /** "task:WORKING", "status:COMPLETED", "artifact", "message". */
        String kind() {
            JsonNode r = result();
            if (r.has("task")) {
                return "task:" + r.get("task").get("status").get("state").asText().replace("TASK_STATE_", "");
            }
            if (r.has("statusUpdate")) {
                return "status:" + r.get("statusUpdate").get("status").get("state").asText().replace("TASK_STATE_", "");
            }
            return r.has("artifactUpdate") ? "artifact" : "message";
        }

        /** "id kind", what the resume tests compare. */
        String line() {
            return id + " " + kind();
        }
    }

    private final Socket socket;
    private final BufferedReader in;
    private final int status;
    private final String contentType;

    private RawSse(Socket socket, BufferedReader in, int status, String contentType) {
        this.socket = socket;
        this.in = in;
        this.status = status;
        this.contentType = contentType;
    }

    static RawSse call(int port, String method, String params, Map<String, String> headers) throws IOException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":\"" + method + "\",\"method\":\"" + method + "\",\"params\":" + params + "}";
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        StringBuilder request = new StringBuilder("POST / HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "A2A-Version: 1.0\r\n");
        headers.forEach((k, v) -> request.append(k).append(": ").append(v).append("\r\n"));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        request.append("Content-Length: ").append(bytes.length).append("\r\n\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(request.toString().getBytes(StandardCharsets.UTF_8));
        out.write(bytes);
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        int status = Integer.parseInt(in.readLine().split(" ")[1]);
        String contentType = "";
        String line;
        while ((line = in.readLine()) != null && !line.isEmpty()) {
            if (line.regionMatches(true, 0, "Content-Type:", 0, 13)) {
                contentType = line.substring(13).trim();
            }
        }
        return new RawSse(socket, in, status, contentType);
    }

    int status() {
        return status;
    }

    String contentType() {
        return contentType;
    }

    /** A plain JSON answer (an error before any event). */
    JsonNode json() throws IOException {
        StringBuilder body = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            body.append(line);
        }
        return WireJson.mapper().readTree(body.toString());
    }

    /** The next frame, or null once the server closed the stream; comment-only frames are skipped. */
    Frame next() throws IOException {
        String id = null;
        String data = null;
        String line;
        try {
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    if (data != null) {
                        return new Frame(id, WireJson.mapper().readTree(data));
                    }
                    id = null;
                } else if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no frame and no end of stream within 10 s", e);
        }
        return null;
    }

    /** The next {@code n} frames; fails when the stream ends before. */
    List<Frame> next(int n) throws IOException {
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Frame f = next();
            if (f == null) {
                throw new AssertionError("the stream ended after " + frames.size() + " frames, " + n + " expected");
            }
            frames.add(f);
        }
        return frames;
    }

    /** Every frame until the server closes the stream. */
    List<Frame> rest() throws IOException {
        List<Frame> frames = new ArrayList<>();
        Frame f;
        while ((f = next()) != null) {
            frames.add(f);
        }
        return frames;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
