package legate.tap.show;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;

/**
 * The tap's record for later reading ({@code --log FILE}): one JSON object per line and per event,
 * appended and flushed as it happens, so a stream can be followed with {@code tail -f} and a crash
 * loses nothing already seen. Each line has {@code at}, {@code exchange} and {@code event}
 * ({@code request}, {@code response}, {@code stream-opened}, {@code frame}, {@code stream-closed},
 * {@code refused}). A body is a {@code body} string when it is valid UTF-8, else {@code bodyBase64}.
 *
 * <p>A write that fails is reported once on standard error; the traffic goes on.
 */
public final class ExchangeLog implements ExchangeListener, AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final OutputStream out;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean failed;

    private ExchangeLog(Path file, OutputStream out) {
        this.file = file;
        this.out = out;
    }

    /** Opens {@code file} for appending, creating it when missing. */
    public static ExchangeLog open(Path file) throws IOException {
        return new ExchangeLog(file, new BufferedOutputStream(Files.newOutputStream(file,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE)));
    }

    @Override
    public void on(ExchangeEvent event) {
        ObjectNode line = JSON.createObjectNode();
        line.put("at", event.at().toString());
        line.put("exchange", event.exchange());
        switch (event) {
            case Request r -> {
                line.put("event", "request");
                line.put("method", r.method());
                line.put("target", r.target());
                line.put("protocol", r.protocol());
                headers(line, r.headers());
                body(line, r.body());
            }
            case Response r -> {
                line.put("event", "response");
                line.put("status", r.status());
                headers(line, r.headers());
                body(line, r.body());
                line.put("bodyBytes", r.bodyBytes());
                if (r.body().length < r.bodyBytes()) {
                    line.put("bodyCut", true);
                }
                line.put("outcome", r.outcome().name());
                line.put("elapsedMs", r.elapsed().toMillis());
            }
            case StreamOpened s -> {
                line.put("event", "stream-opened");
                line.put("status", s.status());
                headers(line, s.headers());
            }
            case Frame f -> {
                line.put("event", "frame");
                line.put("index", f.index());
                line.put("type", f.event().event());
                line.put("data", f.event().data());
                if (f.event().id() != null) {
                    line.put("id", f.event().id());
                }
            }
            case StreamClosed c -> {
                line.put("event", "stream-closed");
                line.put("frames", c.frames());
                line.put("bodyBytes", c.bodyBytes());
                line.put("outcome", c.outcome().name());
                line.put("elapsedMs", c.elapsed().toMillis());
            }
            case Refused r -> {
                line.put("event", "refused");
                line.put("status", r.status());
                line.put("reason", r.reason());
            }
        }
        write(line.toString());
    }

    private static void headers(ObjectNode line, List<Header> headers) {
        ObjectNode h = line.putObject("headers");
        for (Header header : headers) {
            String prior = h.has(header.name()) ? h.get(header.name()).asText() + ", " : "";
            h.put(header.name(), prior + header.value());
        }
    }

    private static void body(ObjectNode line, byte[] body) {
        if (body.length == 0) {
            return;
        }
        try {
            line.put("body", StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString());
        } catch (CharacterCodingException e) {
            line.put("bodyBase64", Base64.getEncoder().encodeToString(body));
        }
    }

    private void write(String json) {
        lock.lock();
        try {
            out.write(json.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            if (!failed) {
                failed = true;
                System.err.println("legate tap: cannot write the log " + file + ": " + e.getMessage());
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            out.close();
        } finally {
            lock.unlock();
        }
    }
}
