package legate.wire.sse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Parses a Server-Sent Events stream (HTML Living Standard §9.2.6) from bytes, reporting each event
 * as it completes. Pure: no network, so its edge cases are unit-tested on byte arrays.
 *
 * <p>Follows the standard's rules: lines end with CR, LF or CRLF; a line starting with a colon is a
 * comment; a field name without a colon has an empty value; one leading space after the colon is
 * dropped; several data lines join with LF; an event is dispatched at a blank line and only if it
 * has data; a stream that ends mid-event discards that event.
 */
public final class SseParser {
    /** Receives events in stream order, on the thread that calls {@link #parse}. */
    @FunctionalInterface
    public interface Listener {
        /** Returns false to stop reading. */
        boolean onEvent(SseEvent event) throws IOException;
    }

    private final int maxLineBytes;

    /** @param maxLineBytes a line longer than this fails the stream (a peer cannot exhaust memory) */
    public SseParser(int maxLineBytes) {
        this.maxLineBytes = maxLineBytes;
    }

    /** Reads until end of stream or until the listener returns false. */
    public void parse(InputStream in, Listener listener) throws IOException {
        byte[] buf = new byte[8192];
        LineBuffer line = new LineBuffer(maxLineBytes);
        StringBuilder data = null;
        String event = null;
        String lastId = null;
        boolean lastWasCr = false;
        int n;
        while ((n = in.read(buf)) > 0) {
            for (int i = 0; i < n; i++) {
                byte b = buf[i];
                if (b == '\n' && lastWasCr) {
                    lastWasCr = false;
                    continue;
                }
                lastWasCr = b == '\r';
                if (b != '\n' && b != '\r') {
                    line.add(b);
                    continue;
                }
                String text = line.takeString();
                if (text.isEmpty()) {
                    if (data != null) {
                        if (!listener.onEvent(new SseEvent(event, data.toString(), lastId))) {
                            return;
                        }
                    }
                    data = null;
                    event = null;
                    continue;
                }
                if (text.charAt(0) == ':') {
                    continue;
                }
                int colon = text.indexOf(':');
                String field = colon < 0 ? text : text.substring(0, colon);
                String value = colon < 0 ? "" : text.substring(colon + 1);
                if (value.startsWith(" ")) {
                    value = value.substring(1);
                }
                switch (field) {
                    case "data" -> {
                        if (data == null) {
                            data = new StringBuilder(value);
                        } else {
                            data.append('\n').append(value);
                        }
                    }
                    case "event" -> event = value;
                    case "id" -> {
                        if (value.indexOf('\0') < 0) {
                            lastId = value;
                        }
                    }
                    default -> {
                        // "retry" and unknown fields do not change what Legate does with a stream.
                    }
                }
            }
        }
    }

    private static final class LineBuffer {
        private final int max;
        private byte[] bytes = new byte[256];
        private int size;

        LineBuffer(int max) {
            this.max = max;
        }

        void add(byte b) throws IOException {
            if (size == bytes.length) {
                if (size >= max) {
                    throw new IOException("SSE line longer than " + max + " bytes");
                }
                bytes = Arrays.copyOf(bytes, Math.min(max, size * 2));
            }
            bytes[size++] = b;
        }

        String takeString() {
            String s = new String(bytes, 0, size, StandardCharsets.UTF_8);
            size = 0;
            return s;
        }
    }
}
