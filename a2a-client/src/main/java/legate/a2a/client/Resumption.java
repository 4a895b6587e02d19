package legate.a2a.client;

import java.time.Duration;

/**
 * How a client resumes a stream that was cut before its turn ended: only from an agent whose card
 * declares {@link legate.a2a.model.LegateExtensions#RESUMABLE_STREAMS}, once it has seen the task's
 * id and an event id, with up to {@code attempts} SubscribeToTask calls carrying
 * {@code Last-Event-ID}, waiting {@code backoff} before the first and twice as long before each
 * next one (at most {@link #MAX_DELAY}).
 *
 * @param attempts attempts after one cut; 0 turns resumption off
 * @param backoff the wait before the first attempt
 */
public record Resumption(int attempts, Duration backoff) {
    /** Five attempts from 200 ms: 0.2, 0.4, 0.8, 1.6 and 3.2 s, time for an agent to restart. */
    public static final Resumption DEFAULT = new Resumption(5, Duration.ofMillis(200));
    /** A cut stream ends the call, as it would against an agent without the extension. */
    public static final Resumption OFF = new Resumption(0, Duration.ofMillis(1));
    /** The longest wait between two attempts. */
    public static final Duration MAX_DELAY = Duration.ofSeconds(5);

    public Resumption {
        if (attempts < 0) {
            throw new IllegalArgumentException("resumption attempts must not be negative");
        }
        if (backoff == null || backoff.isNegative()) {
            throw new IllegalArgumentException("the resumption backoff must be a duration of zero or more");
        }
    }

    public boolean enabled() {
        return attempts > 0;
    }

    /** The wait before attempt {@code n} (from 1). */
    public Duration delay(int n) {
        Duration d = backoff;
        for (int i = 1; i < n && d.compareTo(MAX_DELAY) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : d;
    }
}
