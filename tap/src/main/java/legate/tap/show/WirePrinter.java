package legate.tap.show;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;

/**
 * The tap's console: prints each exchange event as one block whose every line starts with the
 * exchange's number ({@code [#3]}). Blocks are written whole under one lock, so concurrent
 * exchanges interleave block by block, never in the middle of a line.
 *
 * <p>JSON bodies and frame data are laid out by {@link JsonLayout} with the sender's tokens intact;
 * anything else is shown as text with control characters made visible, so a broken body looks broken.
 * Colours are for terminals only; the caller decides. A block is built as bytes ({@link PrintedBlock})
 * and written with one call, so a body goes from the wire to the console without being decoded.
 * Blocks are flushed when the listener thread has caught up ({@link #caughtUp()}), so a buffered
 * stream gets one write per batch of events; a stream that flushes on every write shows each at once.
 */
public final class WirePrinter implements ExchangeListener {
    private static final String RESET = PrintedBlock.RESET;
    private static final String DIM = PrintedBlock.DIM;
    private static final String CYAN = "\u001b[36m";
    private static final String GREEN = "\u001b[32m";
    private static final String YELLOW = "\u001b[33m";
    private static final String RED = "\u001b[31m";

    private final PrintStream out;
    private final boolean colour;
    private final ShownHeaders console;
    private final ReentrantLock lock = new ReentrantLock();

    public WirePrinter(PrintStream out, boolean colour) {
        this(out, colour, ShownHeaders.A2A);
    }

    /** @param console the headers printed of an event that carries them all: {@link ShownHeaders#A2A}, with the tap's API key header */
    public WirePrinter(PrintStream out, boolean colour, ShownHeaders console) {
        this.out = out;
        this.colour = colour;
        this.console = console;
    }

    @Override
    public void on(ExchangeEvent event) {
        PrintedBlock b = new PrintedBlock(event.exchange(), colour);
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
                GrpcStatus grpc = GrpcStatus.in(r.headers());
                b.head(grpc != null ? grpcColour(grpc) : statusColour(r.status()), "<- " + r.status() + " "
                        + contentType(r.headers()) + "  " + size(r.bodyBytes()) + ", " + elapsed(r.elapsed())
                        + ending(r.outcome()) + (grpc == null ? "" : "  grpc-status " + grpc.summary()));
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
                text(b, f.event().data().getBytes(StandardCharsets.UTF_8));
            }
            case StreamClosed c -> {
                GrpcStatus grpc = GrpcStatus.in(c.trailers());
                b.head(c.outcome() != Outcome.COMPLETE || (grpc != null && !grpc.ok()) ? RED : DIM, "== stream closed: "
                        + c.frames() + (c.frames() == 1 ? " frame, " : " frames, ") + size(c.bodyBytes()) + ", "
                        + elapsed(c.elapsed()) + ending(c.outcome()) + (grpc == null ? "" : "  grpc-status " + grpc.summary()));
                headers(b, c.trailers());
            }
            case Refused r -> b.head(RED, "!! " + r.status() + " " + r.reason());
            case Flagged f -> b.head(RED, "!! problem: " + f.problem().summary() + " (" + visible(f.detail()) + ")");
        }
        print(b.array(), b.length());
    }

    /** A line of the tap's own, outside any exchange: start-up, shutdown. */
    public void note(String text) {
        byte[] line = ((colour ? DIM + text + RESET : text) + System.lineSeparator()).getBytes(out.charset());
        lock.lock();
        try {
            out.write(line, 0, line.length);
            out.flush();
        } finally {
            lock.unlock();
        }
    }

    private void print(byte[] block, int length) {
        byte[] bytes = block;
        if (!out.charset().equals(StandardCharsets.UTF_8)) {
            // A console that is not UTF-8 gets the block in its own charset.
            bytes = new String(block, 0, length, StandardCharsets.UTF_8).getBytes(out.charset());
            length = bytes.length;
        }
        lock.lock();
        try {
            // No flush: a stream that flushes on write shows the block now; a buffered one (the
            // tap's console) shows it when the listener thread has caught up.
            out.write(bytes, 0, length);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void caughtUp() {
        lock.lock();
        try {
            out.flush();
        } finally {
            lock.unlock();
        }
    }

    /** The headers that matter to A2A: with the web page on, the events carry every header, the console shows these. */
    private void headers(PrintedBlock b, List<Header> headers) {
        for (Header h : headers) {
            if (!console.keeps(h.name())) {
                continue;
            }
            b.line(DIM, h.name() + ": " + visible(h.value()));
        }
    }

    private static void body(PrintedBlock b, byte[] body, long total, List<Header> headers) {
        if (total == 0) {
            return;
        }
        for (Header h : headers) {
            if (h.name().equalsIgnoreCase("Content-Encoding") && !h.value().equalsIgnoreCase("identity")) {
                b.line(DIM, "(" + h.value() + "-encoded body of " + size(total) + ", not shown)");
                return;
            }
        }
        if (body.length < total) {
            text(b, body);
            b.line(DIM, "... (" + size(total - body.length) + " more, not shown)");
            return;
        }
        text(b, body);
    }

    /** JSON laid out; anything else as it came. */
    private static void text(PrintedBlock b, byte[] bytes) {
        if (!JsonLayout.layOut(bytes, b)) {
            raw(b, new String(bytes, StandardCharsets.UTF_8));
        }
    }

    /** Text line by line as it came; CR, LF and CRLF all end a line. */
    private static void raw(PrintedBlock b, String text) {
        char[] s = text.toCharArray();
        int start = 0;
        for (int i = 0; i < s.length; i++) {
            char c = s[i];
            if (c == '\n' || c == '\r') {
                b.bodyLine(s, start, i);
                if (c == '\r' && i + 1 < s.length && s[i + 1] == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        b.bodyLine(s, start, s.length);
    }

    /** Control characters other than tab print as {@code \xNN}: a header cannot drive the terminal. */
    private static String visible(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (PrintedBlock.isControl(s.charAt(i))) {
                StringBuilder sb = new StringBuilder(s.length() + 8);
                for (char c : s.toCharArray()) {
                    if (PrintedBlock.isControl(c)) {
                        sb.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
                return sb.toString();
            }
        }
        return s;
    }

    private static String contentType(List<Header> headers) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase("Content-Type")).map(Header::value)
                .findFirst().orElse("(no Content-Type)");
    }

    private static String grpcColour(GrpcStatus status) {
        return status.ok() ? GREEN : RED;
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
}
