package legate.wire.sse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes Server-Sent Events frames (HTML Living Standard §9.2) to a stream and flushes each one, so
 * a frame reaches the client the moment it is produced. An IOException means the client went away;
 * it is the caller's signal to stop, not an error to report.
 *
 * <p>Not thread-safe: one writer per response, written from one thread.
 */
public final class SseWriter {
    private final OutputStream out;

    public SseWriter(OutputStream out) {
        this.out = out;
    }

    /** One event with only a data field. A payload with line breaks becomes several data lines. */
    public void data(String payload) throws IOException {
        event(null, payload);
    }

    /** One event with an optional event name. */
    public void event(String name, String payload) throws IOException {
        StringBuilder frame = new StringBuilder(payload.length() + 16);
        if (name != null) {
            // A CR or LF in the event name would end the field early and let a value inject frames.
            frame.append("event: ").append(name.replace("\r", "").replace("\n", "")).append('\n');
        }
        int start = 0;
        int len = payload.length();
        for (int i = 0; i < len; i++) {
            char c = payload.charAt(i);
            if (c == '\n' || c == '\r') {
                frame.append("data: ").append(payload, start, i).append('\n');
                if (c == '\r' && i + 1 < len && payload.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        frame.append("data: ").append(payload, start, len).append("\n\n");
        out.write(frame.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A comment line: ignored by parsers, it keeps idle connections from being reaped by proxies. */
    public void comment(String text) throws IOException {
        out.write((": " + text.replace("\r", "").replace("\n", " ") + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
