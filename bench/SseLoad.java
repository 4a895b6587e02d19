import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The stream client of the benchmark harness (bench/README.md): A2A SendStreamingMessage over plain
 * HTTP/1.1 sockets, reading the Server-Sent Events by hand so that the client's own cost stays small,
 * and checking every stream, so a fast wrong answer never counts.
 *
 * <pre>
 *   java bench/SseLoad.java --mode load  --url http://127.0.0.1:PORT/ --concurrency 16 --warmup 1 --duration 5
 *   java bench/SseLoad.java --mode held  --url http://127.0.0.1:PORT/ --count 10000 [--window 256] [--warmup 200]
 *   java bench/SseLoad.java --mode trace --url http://127.0.0.1:PORT/ --text "..." [--timeout-ms 60000]
 * </pre>
 *
 * <ul>
 * <li><b>load</b>: C connections (kept alive), each sending one stream after another. A stream passes when
 * the answer is HTTP 200 text/event-stream, its first frame is the Task, one frame carries Revisor's exact
 * statistics, the last frame is COMPLETED, no frame is an error and the response ends cleanly. Prints
 * {@code BENCH_MARK start|end} around the measured window, then {@code BENCH_JSON {...}}: streams/s and the
 * time to the first and to the last frame (p50, p90, p99, max), counted over streams that started inside
 * the window and ended before its end.</li>
 * <li><b>held</b>: opens COUNT streams through one selector, at most WINDOW waiting for their first frame at
 * a time, and holds them. It speaks on stdin/stdout with whoever runs it: {@code BENCH_READY} after a
 * warm-up batch (opened, then closed), waits for the line {@code open}, prints {@code BENCH_OPEN {...}}
 * once every stream has its first frame (or failed), waits for the line {@code close}, closes every
 * socket at once (RST, so no TIME_WAIT piles up) and prints {@code BENCH_CLOSED {...}}.</li>
 * <li><b>trace</b>: one stream; prints {@code FRAME <microseconds> <data>} for each event, stamped when the
 * read that completed it returned, by {@code System.nanoTime()} (CLOCK_MONOTONIC on Linux, the clock
 * bench/acp-flood.mjs stamps its chunks with). The lines are printed once the stream has ended, so the
 * client does nothing but read and split frames while it runs.</li>
 * </ul>
 * Every wait is bounded; only 127.0.0.1 is accepted. Single file, so {@code java bench/SseLoad.java} runs it.
 */
public final class SseLoad {
    static final String EXPECT = "Words: 6, characters: 30, sentences: 2.";
    static final String TEXT = "The quick brown fox. It jumps!";
    static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
            StandardCharsets.UTF_8);

    public static void main(String[] args) throws Exception {
        Map<String, String> a = options(args);
        URI url = URI.create(a.getOrDefault("url", ""));
        if (!"127.0.0.1".equals(url.getHost()) || url.getPort() <= 0) {
            fail("--url must be http://127.0.0.1:PORT/...: the harness talks only to loopback");
        }
        String tag = a.getOrDefault("tag", Long.toString(System.currentTimeMillis(), 36));
        switch (a.getOrDefault("mode", "load")) {
            case "load" -> load(url, tag, integer(a, "concurrency", 16), seconds(a, "warmup", 1),
                    seconds(a, "duration", 5), integer(a, "max-streams", 2_000_000), integer(a, "timeout-ms", 10_000));
            case "held" -> held(url, tag, integer(a, "count", 1000), integer(a, "window", 256),
                    integer(a, "warmup", 200), integer(a, "open-timeout-s", 120), integer(a, "hold-max-s", 300));
            case "trace" -> trace(url, tag, a.getOrDefault("text", TEXT), integer(a, "timeout-ms", 60_000));
            default -> fail("--mode must be load, held or trace");
        }
        System.exit(0);
    }

    // ---------------------------------------------------------------------------------------------
    // load

    static void load(URI url, String tag, int concurrency, double warmupS, double durationS, int maxStreams,
                     int timeoutMs) throws InterruptedException {
        long start = System.nanoTime();
        long windowStart = start + (long) (warmupS * 1e9);
        long windowEnd = windowStart + (long) (durationS * 1e9);
        long hardStop = windowEnd + TimeUnit.SECONDS.toNanos(30);
        Worker[] workers = new Worker[concurrency];
        Thread[] threads = new Thread[concurrency];
        java.util.concurrent.atomic.AtomicInteger budget = new java.util.concurrent.atomic.AtomicInteger(maxStreams);
        for (int i = 0; i < concurrency; i++) {
            workers[i] = new Worker(url, tag + "-" + i, windowStart, windowEnd, timeoutMs, budget);
            threads[i] = new Thread(workers[i], "sse-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        sleepUntil(windowStart);
        OUT.println("BENCH_MARK start");
        sleepUntil(windowEnd);
        OUT.println("BENCH_MARK end");
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(hardStop - System.nanoTime())));
        }
        long ok = 0, failures = 0, all = 0;
        String firstFailure = null;
        LongList ttff = new LongList(), ttlf = new LongList();
        for (Worker w : workers) {
            ok += w.counted;
            failures += w.failures;
            all += w.started;
            ttff.addAll(w.ttff);
            ttlf.addAll(w.ttlf);
            if (firstFailure == null) {
                firstFailure = w.firstFailure;
            }
        }
        OUT.printf(Locale.ROOT, "BENCH_JSON {\"streams\":%d,\"started\":%d,\"duration_s\":%.3f,\"streams_per_s\":%.2f,"
                        + "\"failures\":%d,\"ttff_ms\":%s,\"ttlf_ms\":%s,\"first_failure\":%s}%n",
                ok, all, durationS, ok / durationS, failures, ttff.summaryMs(), ttlf.summaryMs(), quote(firstFailure));
    }

    /** One connection sending stream after stream, recording the ones inside the window. */
    static final class Worker implements Runnable {
        final URI url;
        final String tag;
        final long windowStart, windowEnd;
        final int timeoutMs;
        final java.util.concurrent.atomic.AtomicInteger budget;
        final LongList ttff = new LongList(), ttlf = new LongList();
        long counted, failures, started;
        String firstFailure;

        Worker(URI url, String tag, long windowStart, long windowEnd, int timeoutMs,
               java.util.concurrent.atomic.AtomicInteger budget) {
            this.url = url;
            this.tag = tag;
            this.windowStart = windowStart;
            this.windowEnd = windowEnd;
            this.timeoutMs = timeoutMs;
            this.budget = budget;
        }

        @Override
        public void run() {
            Socket socket = null;
            byte[] buf = new byte[64 * 1024];
            Check check = new Check();
            Decoder decoder = new Decoder(check, StandardCharsets.ISO_8859_1);
            while (System.nanoTime() < windowEnd && budget.getAndDecrement() > 0) {
                String id = "s" + tag + "-" + (++started);
                check.reset(id);
                decoder.reset();
                boolean ok;
                try {
                    if (socket == null) {
                        socket = connect(url, timeoutMs);
                    }
                    OutputStream out = socket.getOutputStream();
                    InputStream in = socket.getInputStream();
                    byte[] req = streamingRequest(url, id, id, TEXT);
                    check.t0 = System.nanoTime();
                    out.write(req);
                    out.flush();
                    while (!decoder.done()) {
                        int n = in.read(buf);
                        if (n < 0) {
                            decoder.eof();
                            break;
                        }
                        decoder.feed(buf, 0, n);
                    }
                    ok = check.verdict(decoder) == null;
                    if (!ok || decoder.close || !decoder.done()) {
                        socket = closeQuietly(socket);
                    }
                } catch (IOException e) {
                    check.problem = check.problem != null ? check.problem : e.toString();
                    ok = false;
                    socket = closeQuietly(socket);
                    sleepMs(5);
                }
                long end = System.nanoTime();
                if (!ok) {
                    failures++;
                    if (firstFailure == null) {
                        firstFailure = check.verdict(decoder);
                    }
                } else if (check.t0 >= windowStart && end <= windowEnd) {
                    counted++;
                    ttff.add(check.tFirst - check.t0);
                    ttlf.add(check.tLast - check.t0);
                }
            }
            closeQuietly(socket);
        }
    }

    /** What one Revisor stream must look like; {@link #verdict} says what was wrong, or null. */
    static final class Check implements Decoder.Sink {
        String id;
        long t0, tFirst, tLast;
        int frames;
        boolean firstIsTask, sawStats, completed;
        String problem;

        void reset(String id) {
            this.id = id;
            t0 = tFirst = tLast = 0;
            frames = 0;
            firstIsTask = sawStats = completed = false;
            problem = null;
        }

        @Override
        public void event(String data) {
            long now = System.nanoTime();
            if (++frames == 1) {
                tFirst = now;
                firstIsTask = data.contains("\"task\":{") && !data.contains("\"statusUpdate\"");
            }
            if (problem != null) {
                return;
            }
            if (completed) {
                problem = "a frame after COMPLETED: " + clip(data);
            } else if (data.contains("\"error\"") || !data.contains("\"id\":\"" + id + "\"")) {
                problem = "an error or a frame for another request id: " + clip(data);
            } else if (data.contains("TASK_STATE_FAILED") || data.contains("TASK_STATE_CANCELED")
                    || data.contains("TASK_STATE_REJECTED")) {
                problem = "the task did not complete: " + clip(data);
            } else {
                sawStats |= data.contains(EXPECT);
                if (data.contains("TASK_STATE_COMPLETED")) {
                    completed = true;
                    tLast = now;
                }
            }
        }

        String verdict(Decoder d) {
            if (problem != null) {
                return problem;
            }
            if (d.status != 200 || !d.isSse()) {
                return "HTTP " + d.status + " " + d.contentType + ": " + clip(d.raw.toString());
            }
            if (!firstIsTask) {
                return "the first frame is not the Task";
            }
            if (!sawStats) {
                return "no frame carries the expected statistics (" + EXPECT + ")";
            }
            if (!completed) {
                return "the stream ended without COMPLETED after " + frames + " frames";
            }
            if (!d.done()) {
                return "the response did not end cleanly";
            }
            return null;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // held

    /** One held stream: a non-blocking socket, its request still to send, and its decoder. */
    static final class Held implements Decoder.Sink {
        final SocketChannel channel;
        final ByteBuffer request;
        final Decoder decoder = new Decoder(this, StandardCharsets.ISO_8859_1);
        final Opener owner;
        boolean open, failed, closed;
        int frames;

        Held(SocketChannel channel, ByteBuffer request, Opener owner) {
            this.channel = channel;
            this.request = request;
            this.owner = owner;
        }

        @Override
        public void event(String data) {
            if (++frames == 1 && !failed) {
                if (data.contains("\"task\":{") && !data.contains("\"error\"")) {
                    open = true;
                    owner.opened(this);
                } else {
                    owner.failed(this, "the first frame is not a Task: " + clip(data));
                }
            }
        }
    }

    /** Opens and holds streams through one selector. Not thread-safe: only the main thread uses it. */
    static final class Opener {
        final Selector selector;
        final InetSocketAddress address;
        final URI url;
        final String tag;
        final ByteBuffer readBuffer = ByteBuffer.allocate(64 * 1024);
        final List<Held> all = new ArrayList<>();
        int started, pending, opened, failed, dropped, ended;
        long lastOpenNanos;
        String firstFailure;

        Opener(URI url, String tag) throws IOException {
            this.selector = Selector.open();
            this.address = new InetSocketAddress("127.0.0.1", url.getPort());
            this.url = url;
            this.tag = tag;
        }

        void start() {
            started++;
            String id = "h" + tag + "-" + started;
            SocketChannel ch = null;
            try {
                ch = SocketChannel.open();
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Held h = new Held(ch, ByteBuffer.wrap(streamingRequest(url, id, id, TEXT)), this);
                all.add(h);
                pending++;
                if (ch.connect(address)) {
                    ch.register(selector, SelectionKey.OP_WRITE, h);
                } else {
                    ch.register(selector, SelectionKey.OP_CONNECT, h);
                }
            } catch (IOException e) {
                failed++;
                if (firstFailure == null) {
                    firstFailure = "cannot open a socket: " + e;
                }
                if (ch != null) {
                    try {
                        ch.close();
                    } catch (IOException ignored) {
                        // the failure is already counted
                    }
                }
            }
        }

        void opened(Held h) {
            pending--;
            opened++;
            lastOpenNanos = System.nanoTime();
        }

        void failed(Held h, String why) {
            if (h.failed || h.closed) {
                return;
            }
            h.failed = true;
            if (!h.open) {
                pending--;
            }
            failed++;
            if (firstFailure == null) {
                firstFailure = why;
            }
            close(h);
        }

        void close(Held h) {
            if (h.closed) {
                return;
            }
            h.closed = true;
            try {
                h.channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            } catch (IOException ignored) {
                // already gone
            }
            try {
                h.channel.close();
            } catch (IOException ignored) {
                // already gone
            }
        }

        /** Starts up to {@code target} streams, at most {@code window} waiting at once, until all are open or failed. */
        void openAll(int target, int window, long deadline) throws IOException {
            int goal = started + target;
            while (System.nanoTime() < deadline && (started < goal || pending > 0)) {
                while (started < goal && pending < window) {
                    start();
                }
                pump(Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50)));
            }
            for (Held h : all) {
                if (!h.open && !h.failed && !h.closed) {
                    failed(h, "no first frame before the open timeout");
                }
            }
        }

        /** Services every socket until {@code until}: connects, writes the request, reads and discards frames. */
        void pump(long until) throws IOException {
            long waitMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime()));
            selector.select(waitMs);
            for (SelectionKey key : selector.selectedKeys()) {
                Held h = (Held) key.attachment();
                if (!key.isValid() || h.closed) {
                    continue;
                }
                try {
                    if (key.isConnectable()) {
                        h.channel.finishConnect();
                        key.interestOps(SelectionKey.OP_WRITE);
                    } else if (key.isWritable()) {
                        h.channel.write(h.request);
                        if (!h.request.hasRemaining()) {
                            key.interestOps(SelectionKey.OP_READ);
                        }
                    } else if (key.isReadable()) {
                        readBuffer.clear();
                        int n = h.channel.read(readBuffer);
                        if (n < 0) {
                            h.decoder.eof();
                            lost(h, "the server closed the stream");
                        } else {
                            h.decoder.feed(readBuffer.array(), 0, n);
                            if (h.decoder.done()) {
                                lost(h, "the server ended the stream: " + clip(h.decoder.raw.toString()));
                            }
                        }
                    }
                } catch (IOException e) {
                    lost(h, e.toString());
                }
            }
            selector.selectedKeys().clear();
        }

        private void lost(Held h, String why) {
            if (h.open) {
                if (h.decoder.done()) {
                    ended++;
                } else {
                    dropped++;
                }
                close(h);
            } else {
                failed(h, why + " (HTTP " + h.decoder.status + ")");
            }
        }

        int closeAll() {
            int n = 0;
            for (Held h : all) {
                if (!h.closed) {
                    close(h);
                    n++;
                }
            }
            all.clear();
            return n;
        }
    }

    static void held(URI url, String tag, int count, int window, int warmup, int openTimeoutS, int holdMaxS)
            throws IOException, InterruptedException {
        LinkedBlockingQueue<String> commands = new LinkedBlockingQueue<>();
        Opener opener = new Opener(url, tag);
        Thread stdin = new Thread(() -> {
            try {
                java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                        StandardCharsets.UTF_8));
                for (String line; (line = r.readLine()) != null; ) {
                    commands.add(line.trim());
                    opener.selector.wakeup();
                }
            } catch (IOException ignored) {
                // stdin closed: treated like "close" below
            }
            commands.add("close");
            opener.selector.wakeup();
        }, "stdin");
        stdin.setDaemon(true);
        stdin.start();

        long t = System.nanoTime();
        opener.openAll(warmup, window, t + TimeUnit.SECONDS.toNanos(openTimeoutS));
        int warmOpened = opener.opened, warmFailed = opener.failed;
        opener.closeAll();
        OUT.printf(Locale.ROOT, "BENCH_READY {\"warmup\":%d,\"opened\":%d,\"failed\":%d,\"ms\":%.1f}%n",
                warmup, warmOpened, warmFailed, (System.nanoTime() - t) / 1e6);
        if (!awaitCommand(commands, "open", holdMaxS)) {
            OUT.println("BENCH_CLOSED {\"aborted\":true}");
            return;
        }
        opener.opened = opener.failed = opener.dropped = opener.ended = 0;
        opener.firstFailure = null;
        long openStart = System.nanoTime();
        opener.openAll(count, window, openStart + TimeUnit.SECONDS.toNanos(openTimeoutS));
        double openMs = ((opener.opened == 0 ? System.nanoTime() : opener.lastOpenNanos) - openStart) / 1e6;
        OUT.printf(Locale.ROOT, "BENCH_OPEN {\"requested\":%d,\"opened\":%d,\"failed\":%d,\"open_ms\":%.1f,"
                        + "\"first_failure\":%s}%n", count, opener.opened, opener.failed, openMs,
                quote(opener.firstFailure));
        long holdEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(holdMaxS);
        while (System.nanoTime() < holdEnd && !"close".equals(commands.poll())) {
            opener.pump(Math.min(holdEnd, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200)));
        }
        long closeStart = System.nanoTime();
        int closed = opener.closeAll();
        OUT.printf(Locale.ROOT, "BENCH_CLOSED {\"closed\":%d,\"dropped_while_held\":%d,\"ended_while_held\":%d,"
                + "\"close_ms\":%.1f}%n", closed, opener.dropped, opener.ended, (System.nanoTime() - closeStart) / 1e6);
    }

    static boolean awaitCommand(LinkedBlockingQueue<String> commands, String wanted, int maxS)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxS);
        while (System.nanoTime() < end) {
            String c = commands.poll(200, TimeUnit.MILLISECONDS);
            if (wanted.equals(c)) {
                return true;
            }
            if ("close".equals(c)) {
                return false;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------------------------------------
    // trace

    static void trace(URI url, String tag, String text, int timeoutMs) {
        String id = "t" + tag;
        // A frame counts as arrived when the read that brought its last byte returned. Stamping it after the
        // decoding (in this fresh, still interpreted JVM) and after printing the frames before it, as this
        // once did, added the client's own work to the bridge's latency.
        long[] arrived = {0};
        List<String> lines = new ArrayList<>();
        Decoder decoder = new Decoder(data -> lines.add("FRAME " + arrived[0] + " " + data), StandardCharsets.UTF_8);
        String problem = null;
        long t0 = System.nanoTime();
        try (Socket socket = connect(url, timeoutMs)) {
            socket.getOutputStream().write(streamingRequest(url, id, id, text));
            byte[] buf = new byte[64 * 1024];
            InputStream in = socket.getInputStream();
            while (!decoder.done()) {
                int n = in.read(buf);
                arrived[0] = System.nanoTime() / 1000;
                if (n < 0) {
                    decoder.eof();
                    break;
                }
                decoder.feed(buf, 0, n);
            }
            if (decoder.status != 200 || !decoder.isSse()) {
                problem = "HTTP " + decoder.status + " " + decoder.contentType + ": " + clip(decoder.raw.toString());
            } else if (!decoder.done()) {
                problem = "the response did not end cleanly";
            }
        } catch (IOException e) {
            problem = e.toString();
        }
        for (String line : lines) {
            OUT.println(line);
        }
        OUT.printf(Locale.ROOT, "BENCH_JSON {\"frames\":%d,\"ms\":%.1f,\"problem\":%s}%n", lines.size(),
                (System.nanoTime() - t0) / 1e6, quote(problem));
    }

    // ---------------------------------------------------------------------------------------------
    // HTTP/1.1 and SSE, by hand

    static Socket connect(URI url, int timeoutMs) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress("127.0.0.1", url.getPort()), timeoutMs);
        s.setSoTimeout(timeoutMs);
        return s;
    }

    static byte[] streamingRequest(URI url, String rpcId, String messageId, String text) {
        byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":\"" + rpcId + "\",\"method\":\"SendStreamingMessage\",\"params\":"
                + "{\"message\":{\"messageId\":\"" + messageId + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":"
                + quote(text) + "}]}}}").getBytes(StandardCharsets.UTF_8);
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + url.getPort()
                + "\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nAccept: text/event-stream\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /**
     * A push decoder for one HTTP/1.1 response: status line and headers, then a chunked, sized or
     * close-delimited body; an event-stream body is split into SSE events (data lines joined by LF,
     * comments and other fields ignored), any other body is kept (clipped) for the failure message.
     */
    static final class Decoder {
        interface Sink {
            void event(String data);
        }

        private enum State { HEAD, SIZE, DATA, DATA_END, TRAILER, LENGTH, UNTIL_CLOSE, DONE }

        final Sink sink;
        final Charset charset;
        private State state = State.HEAD;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        private final ByteArrayOutputStream sseLine = new ByteArrayOutputStream(256);
        private final ByteArrayOutputStream data = new ByteArrayOutputStream(256);
        private boolean hasData, chunked;
        private long remaining, length;
        int status;
        String contentType = "";
        boolean close, truncated;
        final StringBuilder raw = new StringBuilder();

        Decoder(Sink sink, Charset charset) {
            this.sink = sink;
            this.charset = charset;
        }

        void reset() {
            state = State.HEAD;
            line.reset();
            sseLine.reset();
            data.reset();
            hasData = chunked = close = truncated = false;
            remaining = 0;
            length = -1;
            status = 0;
            contentType = "";
            raw.setLength(0);
        }

        boolean done() {
            return state == State.DONE;
        }

        boolean isSse() {
            return contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
        }

        void eof() {
            if (state == State.UNTIL_CLOSE) {
                state = State.DONE;
            } else if (state != State.DONE) {
                truncated = true;
            }
            close = true;
        }

        void feed(byte[] b, int off, int len) {
            int i = off, end = off + len;
            while (i < end && state != State.DONE) {
                switch (state) {
                    case HEAD, SIZE, TRAILER -> {
                        byte c = b[i++];
                        if (c == '\n') {
                            String l = line.toString(StandardCharsets.ISO_8859_1);
                            line.reset();
                            controlLine(l);
                        } else if (c != '\r') {
                            line.write(c);
                        }
                    }
                    case DATA, LENGTH -> {
                        int n = (int) Math.min(remaining, end - i);
                        body(b, i, n);
                        i += n;
                        remaining -= n;
                        if (remaining == 0) {
                            state = state == State.DATA ? State.DATA_END : State.DONE;
                        }
                    }
                    case DATA_END -> {
                        if (b[i++] == '\n') {
                            state = State.SIZE;
                        }
                    }
                    case UNTIL_CLOSE -> {
                        body(b, i, end - i);
                        i = end;
                    }
                    case DONE -> i = end;
                }
            }
        }

        private void controlLine(String l) {
            switch (state) {
                case HEAD -> {
                    if (status == 0) {
                        if (l.isEmpty()) {
                            return;
                        }
                        String[] p = l.split(" ", 3);
                        status = p.length > 1 ? Integer.parseInt(p[1]) : -1;
                        close = l.startsWith("HTTP/1.0");
                    } else if (!l.isEmpty()) {
                        int colon = l.indexOf(':');
                        String name = colon < 0 ? l : l.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                        String value = colon < 0 ? "" : l.substring(colon + 1).trim();
                        switch (name) {
                            case "content-type" -> contentType = value;
                            case "content-length" -> length = Long.parseLong(value);
                            case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                            case "connection" -> close |= value.equalsIgnoreCase("close");
                            default -> { }
                        }
                    } else if (status >= 100 && status < 200) {
                        status = 0;
                    } else if (chunked) {
                        state = State.SIZE;
                    } else if (length >= 0) {
                        remaining = length;
                        state = length == 0 ? State.DONE : State.LENGTH;
                    } else {
                        state = State.UNTIL_CLOSE;
                    }
                }
                case SIZE -> {
                    if (l.isEmpty()) {
                        return;
                    }
                    int semi = l.indexOf(';');
                    remaining = Long.parseLong((semi < 0 ? l : l.substring(0, semi)).trim(), 16);
                    state = remaining == 0 ? State.TRAILER : State.DATA;
                }
                case TRAILER -> {
                    if (l.isEmpty()) {
                        state = State.DONE;
                    }
                }
                default -> throw new IllegalStateException(state.toString());
            }
        }

        private void body(byte[] b, int off, int len) {
            if (!isSse()) {
                if (raw.length() < 600) {
                    raw.append(new String(b, off, Math.min(len, 600), charset));
                }
                return;
            }
            for (int i = off, end = off + len; i < end; i++) {
                byte c = b[i];
                if (c != '\n') {
                    sseLine.write(c);
                    continue;
                }
                int n = sseLine.size();
                byte[] l = sseLine.toByteArray();
                sseLine.reset();
                if (n > 0 && l[n - 1] == '\r') {
                    n--;
                }
                if (n == 0) {
                    if (hasData) {
                        String d = data.toString(charset);
                        data.reset();
                        hasData = false;
                        sink.event(d);
                    }
                } else if (n >= 5 && l[0] == 'd' && l[1] == 'a' && l[2] == 't' && l[3] == 'a' && l[4] == ':') {
                    int from = n > 5 && l[5] == ' ' ? 6 : 5;
                    if (hasData) {
                        data.write('\n');
                    }
                    data.write(l, from, n - from);
                    hasData = true;
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // small things

    /** A growable list of longs (nanoseconds), summarised as milliseconds. */
    static final class LongList {
        long[] v = new long[1024];
        int n;

        void add(long x) {
            if (n == v.length) {
                v = Arrays.copyOf(v, n * 2);
            }
            v[n++] = x;
        }

        void addAll(LongList o) {
            for (int i = 0; i < o.n; i++) {
                add(o.v[i]);
            }
        }

        String summaryMs() {
            if (n == 0) {
                return "null";
            }
            long[] s = Arrays.copyOf(v, n);
            Arrays.sort(s);
            double sum = 0;
            for (long x : s) {
                sum += x;
            }
            return String.format(Locale.ROOT, "{\"n\":%d,\"min\":%.3f,\"mean\":%.3f,\"p50\":%.3f,\"p90\":%.3f,"
                            + "\"p99\":%.3f,\"max\":%.3f}", n, s[0] / 1e6, sum / n / 1e6, pct(s, 50) / 1e6,
                    pct(s, 90) / 1e6, pct(s, 99) / 1e6, s[n - 1] / 1e6);
        }

        static long pct(long[] sorted, double p) {
            int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }
    }

    static Socket closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        return null;
    }

    static void sleepUntil(long nanos) throws InterruptedException {
        long ms;
        while ((ms = TimeUnit.NANOSECONDS.toMillis(nanos - System.nanoTime())) > 0) {
            Thread.sleep(Math.min(ms, 200));
        }
    }

    static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String clip(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }

    static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                fail("expected --name value pairs, got " + args[i]);
            }
            m.put(args[i].substring(2), args[++i]);
        }
        return m;
    }

    static int integer(Map<String, String> a, String k, int def) {
        return a.containsKey(k) ? Integer.parseInt(a.get(k)) : def;
    }

    static double seconds(Map<String, String> a, String k, double def) {
        return a.containsKey(k) ? Double.parseDouble(a.get(k)) : def;
    }

    static void fail(String message) {
        System.err.println("SseLoad: " + message);
        System.exit(2);
    }
}
