package legate.a2a.server.push;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How hard a push delivery tries: PUSH_MAX_ATTEMPTS attempts in all, over PUSH_MAX_AGE at most from
 * the first, with an exponential backoff between them (each wait twice the one before, from
 * {@code firstBackoff} up to {@code longestBackoff}) and jitter, so that many webhooks failing at once
 * (a receiver restarting) do not come back in step. PUSH_QUEUE_MAX bounds what one webhook holds.
 *
 * <p>PROTOCOL (A2A §4.3): the agent makes at least one attempt per configuration; retries are the
 * agent's choice, and a receiver must accept duplicates. Legate retries because a receiver that was
 * briefly down must still get a half-hour task's result.
 *
 * @param maxAttempts attempts per event, the first included (at least 1)
 * @param maxAge how long after its first attempt an event is still tried
 * @param queueMax how many pending events one webhook may hold before the oldest non-terminal status
 *                 updates among them are coalesced (at least 2: the terminal update and one more)
 * @param firstBackoff the wait after the first failed attempt, before jitter
 * @param longestBackoff the longest wait, before jitter
 * @param timeout how long one attempt may take, connecting included
 */
public record PushPolicy(int maxAttempts, Duration maxAge, int queueMax, Duration firstBackoff, Duration longestBackoff,
                         Duration timeout) {
    public static final int DEFAULT_MAX_ATTEMPTS = 8;
    public static final Duration DEFAULT_MAX_AGE = Duration.ofHours(1);
    public static final int DEFAULT_QUEUE_MAX = 100;
    /** Eight attempts: 1, 2, 4 ... 64 s apart before jitter, about two minutes in all. */
    public static final PushPolicy DEFAULT = new PushPolicy(DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_AGE, DEFAULT_QUEUE_MAX,
            Duration.ofSeconds(1), Duration.ofMinutes(5), Duration.ofSeconds(10));

    public PushPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("PUSH_MAX_ATTEMPTS must be at least 1, got " + maxAttempts);
        }
        if (queueMax < 2) {
            throw new IllegalArgumentException("PUSH_QUEUE_MAX must be at least 2, got " + queueMax);
        }
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("PUSH_MAX_AGE must be longer than zero, got " + maxAge);
        }
        if (firstBackoff.isNegative() || longestBackoff.compareTo(firstBackoff) < 0 || timeout.isNegative()
                || timeout.isZero()) {
            throw new IllegalArgumentException("backoffs must be 0 <= first <= longest, and the timeout positive");
        }
    }

    /** The same with other attempt, age and queue bounds (PUSH_MAX_ATTEMPTS, PUSH_MAX_AGE, PUSH_QUEUE_MAX). */
    public PushPolicy withLimits(int attempts, Duration age, int queue) {
        return new PushPolicy(attempts, age, queue, firstBackoff, longestBackoff, timeout);
    }

    /** The same with other waits between attempts (tests make them milliseconds). */
    public PushPolicy withBackoff(Duration first, Duration longest) {
        return new PushPolicy(maxAttempts, maxAge, queueMax, first, longest, timeout);
    }

    /** The same with another timeout per attempt. */
    public PushPolicy withTimeout(Duration perAttempt) {
        return new PushPolicy(maxAttempts, maxAge, queueMax, firstBackoff, longestBackoff, perAttempt);
    }

    /**
     * The wait after the {@code failed}-th failed attempt of an event: first × 2^(failed-1), at most
     * the longest, then a random half of it taken off ("equal jitter": never less than half the
     * exponential wait, so the backoff still grows).
     */
    public Duration backoff(int failed, RandomGenerator random) {
        long first = firstBackoff.toNanos();
        long wait = first;
        for (int i = 1; i < failed && wait < longestBackoff.toNanos(); i++) {
            wait = Math.multiplyExact(wait, 2);
        }
        wait = Math.min(wait, longestBackoff.toNanos());
        long half = wait / 2;
        return Duration.ofNanos(wait - half + (half == 0 ? 0 : random.nextLong(half + 1)));
    }
}
