package legate.a2a.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * {@link ThrottledLog}: a warning a caller can provoke at will (issue 30, defect 6: one malformed
 * gRPC request, one 31-line SEVERE trace) is written once per interval, and the next line written
 * says how many were held back, so nothing is hidden without a trace.
 */
class ThrottledLogTest {
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final AtomicLong now = new AtomicLong(1_000);
    private final ThrottledLog log = new ThrottledLog(new Recording(), Duration.ofSeconds(60), now::get);

    @Test
    void theFirstIsWrittenTheRestOfTheIntervalCountedAndTheNextLineSaysHowMany() {
        for (int i = 0; i < 50; i++) {
            log.warn("bad request " + i);
        }
        assertThat(lines).containsExactly("WARN bad request 0");

        now.addAndGet(Duration.ofSeconds(59).toNanos());
        log.warn("bad request 50");
        assertThat(lines).hasSize(1);

        now.addAndGet(Duration.ofSeconds(1).toNanos());
        log.warn("bad request 51");
        assertThat(lines).containsExactly("WARN bad request 0",
                "WARN bad request 51 (50 more like it since the last such line were not logged)");

        // A quiet interval: the next one is written alone, with nothing held back to report.
        now.addAndGet(Duration.ofMinutes(5).toNanos());
        log.warn("bad request 52");
        assertThat(lines).last().isEqualTo("WARN bad request 52");
    }

    /** A logger that keeps each line it is given, formatted, with its level. */
    private final class Recording extends LegacyAbstractLogger {
        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
                                                   Throwable t) {
            lines.add(level + " " + MessageFormatter.basicArrayFormat(pattern, args));
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }
}
