package legate.tap;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import legate.tap.ExchangeEvent.Frame;
import legate.tap.ExchangeEvent.Header;
import legate.tap.ExchangeEvent.Outcome;
import legate.tap.ExchangeEvent.Refused;
import legate.tap.ExchangeEvent.Request;
import legate.tap.ExchangeEvent.Response;
import legate.tap.ExchangeEvent.StreamClosed;
import legate.tap.ExchangeEvent.StreamOpened;

/**
 * The tap's console: prints each exchange event as one block whose every line starts with the
 * exchange's number ({@code [#3]}). Blocks are written whole under one lock, so concurrent
 * exchanges interleave block by block, never in the middle of a line.
 *
 * <p>JSON bodies and frame data are laid out by {@link JsonLayout} with the sender's tokens intact;
 * anything else is shown as text with control characters made visible, so a broken body looks broken.
 * Colours are for terminals only; the caller decides.
 */
public final class WirePrinter implements ExchangeListener {
    private static final String RESET = "\u001b[0m";
    private static final String DIM = "\u001b[2m";
    private static final String CYAN = "\u001b[36m";
    private static final String GREEN = "\u001b[32m";
    private static final String YELLOW = "\u001b[33m";
    private static final String RED = "\u001b[31m";

    private final PrintStream out;
    private final boolean colour;
    private final ReentrantLock lock = new ReentrantLock();

    public WirePrinter(PrintStream out, boolean colour) {
        this.out = out;
        this.colour = colour;
    }

    @Override
    public void on(ExchangeEvent event) {
        Block b = new Block(event.exchange());
        switch (event) {
            case Request r -> {
                b.head(CYAN, "-> " + r.method() + " " + r.target() + " " + r.protocol());
                if (r.headers().stream().noneMatch(h -> h.name().equalsIgnoreCase("A2A-Version"))) {
                    b.line(DIM, "A2A-Version: (absent: an A2A server reads 0.3)");
                }
                headers(b, r.headers());
                body(b, r.body(), r.body().length, r.headers());
            }
            case Response r -> {
                b.head(statusColour(r.status()), "<- " + r.status() + " " + contentType(r.headers()) + "  "
                        + size(r.bodyBytes()) + ", " + elapsed(r.elapsed()) + ending(r.outcome()));
                headers(b, r.headers().stream().filter(h -> !h.name().equalsIgnoreCase("Content-Type")).toList());
                body(b, r.body(), r.bodyBytes(), r.headers());
            }
            case StreamOpened s -> {
                b.head(statusColour(s.status()), "<- " + s.status() + " " + contentType(s.headers()) + "  (stream open)");
                headers(b, s.headers().stream().filter(h -> !h.name().equalsIgnoreCase("Content-Type")).toList());
            }
            case Frame f -> {
                String name = f.event().event();
                b.head(name.equals("error") ? RED : YELLOW, "<- frame " + f.index()
                        + (name.equals("message") ? "" : "  event: " + name)
                        + (f.event().id() == null ? "" : "  id: " + f.event().id()));
                text(b, f.event().data());
            }
            case StreamClosed c -> b.head(c.outcome() == Outcome.COMPLETE ? DIM : RED, "== stream closed: "
                    + c.frames() + (c.frames() == 1 ? " frame, " : " frames, ") + size(c.bodyBytes()) + ", "
                    + elapsed(c.elapsed()) + ending(c.outcome()));
            case Refused r -> b.head(RED, "!! " + r.status() + " " + r.reason());
        }
        print(b.toString());
    }

    /** A line of the tap's own, outside any exchange: start-up, shutdown. */
    public void note(String text) {
        print((colour ? DIM + text + RESET : text) + System.lineSeparator());
    }

    private void print(String block) {
        lock.lock();
        try {
            out.print(block);
            out.flush();
        } finally {
            lock.unlock();
        }
    }

    private static void headers(Block b, List<Header> headers) {
        for (Header h : headers) {
            b.line(DIM, h.name() + ": " + visible(h.value()));
        }
    }

    private static void body(Block b, byte[] body, long total, List<Header> headers) {
        if (total == 0) {
            return;
        }
        for (Header h : headers) {
            if (h.name().equalsIgnoreCase("Content-Encoding") && !h.value().equalsIgnoreCase("identity")) {
                b.line(DIM, "(" + h.value() + "-encoded body of " + size(total) + ", not shown)");
                return;
            }
        }
        String text = new String(body, StandardCharsets.UTF_8);
        if (body.length < total) {
            text(b, text);
            b.line(DIM, "... (" + size(total - body.length) + " more, not shown)");
            return;
        }
        text(b, text);
    }

    private static void text(Block b, String text) {
        String layout = JsonLayout.of(text);
        for (String line : (layout != null ? layout : text).split("\r\n|\r|\n", -1)) {
            b.line(null, visible(line));
        }
    }

    /** Control characters other than tab print as {@code \xNN}: a body cannot drive the terminal. */
    private static String visible(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = (c < 0x20 && c != '\t') || c == 0x7f || (c >= 0x80 && c < 0xa0);
            if (control && sb == null) {
                sb = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (sb != null) {
                if (control) {
                    sb.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
                } else {
                    sb.append(c);
                }
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static String contentType(List<Header> headers) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase("Content-Type")).map(Header::value)
                .findFirst().orElse("(no Content-Type)");
    }

    private static String statusColour(int status) {
        return status >= 200 && status < 300 ? GREEN : RED;
    }

    private static String ending(Outcome outcome) {
        return switch (outcome) {
            case COMPLETE -> "";
            case CLIENT_GONE -> "  (the client went away; the tap hung up on the agent)";
            case UPSTREAM_BROKE -> "  (the agent broke off the body; the client's response was cut too)";
        };
    }

    static String size(long bytes) {
        return bytes < 10_000 ? bytes + " B" : String.format(Locale.ROOT, "%.1f kB", bytes / 1000.0);
    }

    static String elapsed(Duration d) {
        long ms = d.toMillis();
        return ms < 10_000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** One event's lines, each with the exchange's prefix. */
    private final class Block {
        private final String prefix;
        private final StringBuilder sb = new StringBuilder(256);

        Block(long exchange) {
            this.prefix = "[#" + exchange + "] ";
        }

        void head(String style, String text) {
            append(style, text);
        }

        void line(String style, String text) {
            append(style, "   " + text);
        }

        private void append(String style, String text) {
            if (colour) {
                sb.append(DIM).append(prefix).append(RESET);
                sb.append(style == null ? text : style + text + RESET);
            } else {
                sb.append(prefix).append(text);
            }
            sb.append(System.lineSeparator());
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }
}
