package legate.tap.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import legate.tap.show.EncodedLine;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeListener;
import legate.tap.show.ProtocolCheck;
import legate.wire.http.BindAddress;
import legate.wire.http.KnownHosts;
import legate.wire.json.WireJson;

/**
 * {@code legate tap --web}: the inspector, a web page that shows the tap's traffic live. It is one
 * more listener of the tap ({@link #on}), fed on the listener thread like the console, so the
 * forwarding path does not change; it keeps the session ({@link SessionHistory}) and serves it on
 * a port of its own: the page and its script (resources inside the jar, no network needed), the
 * live feed ({@code /events}, SSE: how the lists stand, a few times a second), the lists a page
 * asks for ({@code /rows} filtered, {@code /tasks}, {@code /contexts}), exchanges whole
 * ({@code /exchange}, for the views that draw bodies),
 * the session as HAR and as JSON Lines, an import, and the
 * composer ({@code /send}). The composer is on once the tap's URL is known ({@link #sendThrough});
 * a replay has none.
 *
 * <p>Served by the JDK's own HTTP server on virtual threads: one person's page, a handful of
 * requests, and a feed per open page that blocks on its own thread, never on the tap's.
 */
public final class Inspector implements ExchangeListener, AutoCloseable {
    public static final int DEFAULT_PORT = 41245;
    static final int MAX_EVENTS = 50_000;
    static final long MAX_HISTORY_BYTES = 64L * 1024 * 1024;
    static final int MAX_IMPORT_BYTES = 64 * 1024 * 1024;
    /** The most exchanges one {@code /exchange} request gives: a view draws a task's or a context's newest ones. */
    static final int MAX_EXCHANGES_ASKED = 1_000;
    private static final Map<String, String> PAGE = Map.of("/", "index.html", "/index.html", "index.html",
            "/inspector.js", "inspector.js", "/inspector.css", "inspector.css");
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private final String host;
    private final int port;
    private final URI origin;
    private volatile Composer composer;
    private final Clock clock;
    private final SessionHistory history;
    private final RequestGuard guard;
    private HttpServer server;
    private ExecutorService threads;

    /** @param origin the agent's origin, for the URLs of the HAR export */
    public Inspector(String host, int port, URI origin, Clock clock) {
        this(host, port, origin, clock, List.of());
    }

    /**
     * @param origin the agent's origin, for the URLs of the HAR export
     * @param allowedHosts the Host names answered besides the bind address, interface addresses on a
     *     wildcard bind, and loopback names (TAP_ALLOWED_HOSTS); {@code *} answers every Host
     */
    public Inspector(String host, int port, URI origin, Clock clock, List<String> allowedHosts) {
        this.host = host;
        this.port = port;
        this.origin = origin;
        this.clock = clock;
        this.history = new SessionHistory(MAX_EVENTS, MAX_HISTORY_BYTES);
        this.guard = new RequestGuard(KnownHosts.forBind(host, allowedHosts));
    }

    /** Turns the composer on: it sends through the tap at {@code tap}. */
    public void sendThrough(URI tap) {
        composer = new Composer(tap);
    }

    /** Binds and serves; returns the port. */
    public synchronized int start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(host, port), 0);
        threads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("legate-tap-web-", 0).factory());
        server.setExecutor(threads);
        server.createContext("/", this::serve);
        server.start();
        return server.getAddress().getPort();
    }

    /** The page's URL: the bound address, a wildcard bind shown as loopback. */
    public URI url() {
        return URI.create(BindAddress.dialableUrl(host, server.getAddress().getPort(), "/"));
    }

    /** Keeps the event and sends it to every open page; never waits for a page. */
    @Override
    public void on(ExchangeEvent event) {
        on(event, ProtocolCheck.body(event));
    }

    /** As {@link #on(ExchangeEvent)}, with the body the protocol check has already read. */
    @Override
    public void on(ExchangeEvent event, JsonNode body) {
        history.add(event, body);
    }

    /** The pages open now. */
    public int pages() {
        return history.feeds().size();
    }

    private void serve(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            boolean post = ex.getRequestMethod().equals("POST");
            String refusal = guard.refusal(ex, post);
            if (refusal != null) {
                text(ex, 403, refusal);
                return;
            }
            if (!post && !ex.getRequestMethod().equals("GET")) {
                ex.getResponseHeaders().set("Allow", "GET, POST");
                text(ex, 405, "the inspector answers GET and POST");
                return;
            }
            String page = PAGE.get(path);
            if (page != null && !post) {
                resource(ex, page);
                return;
            }
            try {
                route(ex, post, path);
            } catch (BadQuery e) {
                text(ex, 400, "the query is not well-formed: " + e.getMessage());
            }
        } catch (RuntimeException e) {
            // A fault of the inspector's own: this request fails, the tap and the page go on.
            System.err.println("legate tap: the inspector failed on " + ex.getRequestURI().getPath() + ": " + e);
        }
    }

    /** A query the inspector cannot read. */
    private static final class BadQuery extends IOException {
        BadQuery(String message) {
            super(message);
        }
    }

    private void route(HttpExchange ex, boolean post, String path) throws IOException {
        switch (post ? "POST " + path : path) {
            case "/events" -> events(ex);
            case "/status" -> json(ex, 200, status());
            case "/session.har" -> download(ex, "har", "application/json",
                    WireJson.write(HarFile.write(history.events(), origin)));
            case "/session.jsonl" -> download(ex, "jsonl", "application/x-ndjson", lines(history.entries()));
            case "/exchange" -> exchange(ex);
            case "/rows" -> send(ex, 200, "application/json", history.rows(filter(ex)));
            case "/tasks" -> send(ex, 200, "application/json", history.tasks());
            case "/contexts" -> send(ex, 200, "application/json", history.contexts());
            case "POST /import" -> importFile(ex);
            case "POST /send" -> send(ex);
            default -> text(ex, 404, "no such page: " + path);
        }
    }

    private void events(HttpExchange ex) throws IOException {
        BrowserFeed feed = new BrowserFeed();
        history.follow(feed);
        try {
            ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            ex.sendResponseHeaders(200, 0);
            feed.run(ex.getResponseBody(), history);
        } catch (IOException e) {
            // The page went away.
        } finally {
            history.unfollow(feed);
            feed.close();
        }
    }

    private ObjectNode status() {
        ObjectNode s = WireJson.mapper().createObjectNode();
        Composer c = composer;
        s.put("mode", c == null ? "replay" : "live");
        s.put("target", origin.toString());
        if (c != null) {
            s.put("tap", c.tap().toString());
        }
        s.put("pages", pages());
        return s;
    }

    private void importFile(HttpExchange ex) throws IOException {
        byte[] body;
        try (InputStream in = ex.getRequestBody()) {
            body = in.readNBytes(MAX_IMPORT_BYTES + 1);
        }
        if (body.length > MAX_IMPORT_BYTES) {
            text(ex, 413, "a file larger than " + MAX_IMPORT_BYTES / (1024 * 1024) + " MiB is not imported");
            return;
        }
        List<ExchangeEvent> events;
        try {
            events = SessionFile.read(body);
        } catch (IllegalArgumentException e) {
            text(ex, 400, "cannot import the file: " + e.getMessage());
            return;
        }
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        for (ExchangeEvent e : events) {
            lines.writeBytes(EncodedLine.of(e).bytes());
            lines.write('\n');
        }
        send(ex, 200, "application/x-ndjson", lines.toByteArray());
    }

    private void send(HttpExchange ex) throws IOException {
        Composer c = composer;
        if (c == null) {
            text(ex, 409, "a replay has no agent to send to");
            return;
        }
        JsonNode form;
        try (InputStream in = ex.getRequestBody()) {
            form = WireJson.mapper().readTree(in.readNBytes(Composer.MAX_TEXT_CHARS * 4 + 4096));
        } catch (IOException e) {
            text(ex, 400, "the composer's form is not JSON");
            return;
        }
        try {
            json(ex, 202, c.send(form == null ? WireJson.mapper().createObjectNode() : form));
        } catch (IllegalArgumentException e) {
            text(ex, 400, e.getMessage());
        }
    }

    private void resource(HttpExchange ex, String name) throws IOException {
        byte[] bytes;
        try (InputStream in = Inspector.class.getResourceAsStream("page/" + name)) {
            if (in == null) {
                text(ex, 404, "the page's " + name + " is missing from the jar");
                return;
            }
            bytes = in.readAllBytes();
        }
        String type = name.endsWith(".html") ? "text/html; charset=utf-8"
                : name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
        // The page loads only its own script and style, never one of another origin, and runs no inline code.
        ex.getResponseHeaders().set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:");
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        send(ex, 200, type, bytes);
    }

    private void download(HttpExchange ex, String extension, String type, String content) throws IOException {
        download(ex, extension, type, content.getBytes(StandardCharsets.UTF_8));
    }

    private void download(HttpExchange ex, String extension, String type, byte[] content) throws IOException {
        ex.getResponseHeaders().set("Content-Disposition", "attachment; filename=\"legate-tap-"
                + FILE_TIME.format(clock.instant()) + "." + extension + "\"");
        send(ex, 200, type, content);
    }

    /**
     * {@code /exchange?n=N[,M...]}, {@code ?task=ID} or {@code ?context=ID}: the kept lines of these
     * exchanges (of the task's, of the context's tasks') whole, headers and bodies included, as JSON
     * Lines in the order they came. The feed sends neither, so a task's, a context's or an
     * exchange's view asks for its exchanges here when it is drawn.
     */
    private void exchange(HttpExchange ex) throws IOException {
        Map<String, String> query = query(ex);
        Set<Long> wanted;
        if (query.containsKey("task")) {
            wanted = history.exchangesOf(index -> index.exchangesOfTask(query.get("task")));
        } else if (query.containsKey("context")) {
            wanted = history.exchangesOf(index -> index.exchangesOfContext(query.get("context")));
        } else {
            wanted = new HashSet<>();
            try {
                for (String n : query.getOrDefault("n", "").split(",", -1)) {
                    wanted.add(Long.parseLong(n));
                }
            } catch (NumberFormatException e) {
                text(ex, 400, "name the exchanges: /exchange?n=NUMBER[,NUMBER...], ?task=ID or ?context=ID");
                return;
            }
        }
        if (wanted.size() > MAX_EXCHANGES_ASKED) {
            // A task or a context with more: its newest ones.
            wanted = new HashSet<>(wanted.stream().sorted().skip(wanted.size() - MAX_EXCHANGES_ASKED).toList());
        }
        List<SessionHistory.Entry> lines = history.exchanges(wanted);
        if (lines.isEmpty()) {
            text(ex, 404, (wanted.size() == 1 ? "exchange #" + wanted.iterator().next() + " is" : "its exchanges are")
                    + " not (or no longer) kept by the tap");
            return;
        }
        send(ex, 200, "application/x-ndjson", lines(lines));
    }

    /** {@code /rows?method=&status=&task=&context=}: the exchange list's filters. */
    private static SessionIndex.Filter filter(HttpExchange ex) throws IOException {
        Map<String, String> q = query(ex);
        return new SessionIndex.Filter(q.get("method"), q.get("status"), q.get("task"), q.get("context"));
    }

    /** The query's parameters, the first of each name; a broken %-escape is the caller's mistake, a 400. */
    private static Map<String, String> query(HttpExchange ex) throws IOException {
        String raw = ex.getRequestURI().getRawQuery();
        Map<String, String> q = new HashMap<>();
        if (raw == null) {
            return q;
        }
        try {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                q.putIfAbsent(name, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        } catch (IllegalArgumentException e) {
            throw new BadQuery(e.getMessage());
        }
        return q;
    }

    private static byte[] lines(List<SessionHistory.Entry> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (SessionHistory.Entry e : entries) {
            out.writeBytes(e.line());
            out.write('\n');
        }
        return out.toByteArray();
    }

    private static void json(HttpExchange ex, int status, JsonNode body) throws IOException {
        send(ex, status, "application/json", WireJson.write(body).getBytes(StandardCharsets.UTF_8));
    }

    private static void text(HttpExchange ex, int status, String message) throws IOException {
        send(ex, status, "text/plain; charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    /** Ends every page's feed and stops serving. */
    @Override
    public synchronized void close() {
        if (server == null) {
            return;
        }
        for (BrowserFeed feed : history.feeds()) {
            feed.close();
        }
        server.stop(0);
        threads.shutdownNow();
        server = null;
    }
}
