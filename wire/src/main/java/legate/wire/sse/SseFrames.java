package legate.wire.sse;

import java.nio.charset.StandardCharsets;

/**
 * Encodes Server-Sent Events frames (HTML Living Standard §9.2) as the bytes a response writes.
 * Each frame is complete on its own, so a writer can send it the moment it is produced, or send
 * several queued frames in one write.
 */
public final class SseFrames {
    private SseFrames() {
    }

    /** One event with only a data field. A payload with line breaks becomes several data lines. */
    public static byte[] data(String payload) {
        return event(null, payload);
    }

    /** One event with an optional event name. */
    public static byte[] event(String name, String payload) {
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
                // A line break inside the payload would end the data field; each line gets its own.
                frame.append("data: ").append(payload, start, i).append('\n');
                if (c == '\r' && i + 1 < len && payload.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        frame.append("data: ").append(payload, start, len).append("\n\n");
        return frame.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A comment line: ignored by parsers, it keeps idle connections from being reaped by proxies. */
    public static byte[] comment(String text) {
        return (": " + text.replace("\r", "").replace("\n", " ") + "\n\n").getBytes(StandardCharsets.UTF_8);
    }
}
