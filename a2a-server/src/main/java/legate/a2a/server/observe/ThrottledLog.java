package legate.a2a.server.observe;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * A warning that a caller can provoke at will (a malformed request), logged at most once per
 * interval: the first occurrence is written, the next ones within the interval are only counted,
 * and the next line written says how many were held back. One line, never a stack trace, so a
 * flood of bad requests cannot flood the log.
 *
 * <p>Thread-safe: occurrences from many calls at once race for the one line an interval allows.
 */
public final class ThrottledLog {
    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final AtomicLong nextAt;
    private final AtomicLong heldBack = new AtomicLong();

    /** Logs to {@code log} at most once per {@code interval}, timed by the JVM's monotonic clock. */
    public ThrottledLog(Logger log, Duration interval) {
        this(log, interval, System::nanoTime);
    }

    /** @param nanoTime the monotonic clock the interval is measured on (a test's own) */
    public ThrottledLog(Logger log, Duration interval, LongSupplier nanoTime) {
        this.log = log;
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
        this.nextAt = new AtomicLong(nanoTime.getAsLong());
    }

    /** One occurrence of the warning {@code message}: written if the interval allows, counted otherwise. */
    public void warn(String message) {
        long now = nanoTime.getAsLong();
        long due = nextAt.get();
        if (now - due < 0 || !nextAt.compareAndSet(due, now + intervalNanos)) {
            heldBack.incrementAndGet();
            return;
        }
        long held = heldBack.getAndSet(0);
        if (held == 0) {
            log.warn(message);
        } else {
            log.warn("{} ({} more like it since the last such line were not logged)", message, held);
        }
    }
}
