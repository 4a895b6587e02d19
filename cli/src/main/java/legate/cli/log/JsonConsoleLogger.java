package legate.cli.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * One logger of {@link JsonConsoleLogging}: writes {@code {"time","level","logger","thread",
 * "message"}} (and {@code "error"}, the stack trace, when there is one) as a single line, so a
 * message or a stack trace with newlines stays one line and one record.
 */
final class JsonConsoleLogger extends AbstractLogger {
    private static final JsonFactory JSON = new JsonFactory();
    /** The lowest level written, null for none (OFF). */
    private final transient Level threshold;
    private final transient PrintStream out;

    JsonConsoleLogger(String name, Level threshold, PrintStream out) {
        this.name = name;
        this.threshold = threshold;
        this.out = out;
    }

    private boolean enabled(Level level) {
        return threshold != null && level.toInt() >= threshold.toInt();
    }

    @Override
    public boolean isTraceEnabled() {
        return enabled(Level.TRACE);
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
        return isTraceEnabled();
    }

    @Override
    public boolean isDebugEnabled() {
        return enabled(Level.DEBUG);
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
        return isDebugEnabled();
    }

    @Override
    public boolean isInfoEnabled() {
        return enabled(Level.INFO);
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
        return isInfoEnabled();
    }

    @Override
    public boolean isWarnEnabled() {
        return enabled(Level.WARN);
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
        return isWarnEnabled();
    }

    @Override
    public boolean isErrorEnabled() {
        return enabled(Level.ERROR);
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
        return isErrorEnabled();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                                               Throwable throwable) {
        StringWriter line = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(line)) {
            g.writeStartObject();
            g.writeStringField("time", Instant.now().toString());
            g.writeStringField("level", level.name());
            g.writeStringField("logger", name);
            g.writeStringField("thread", Thread.currentThread().getName());
            g.writeStringField("message", MessageFormatter.basicArrayFormat(messagePattern, arguments));
            if (throwable != null) {
                StringWriter trace = new StringWriter();
                throwable.printStackTrace(new PrintWriter(trace));
                g.writeStringField("error", trace.toString());
            }
            g.writeEndObject();
        } catch (IOException e) {
            // a StringWriter does not fail
        }
        // One println per record: PrintStream locks, so records from threads never interleave.
        out.println(line);
    }
}
