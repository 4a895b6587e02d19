package legate.a2a.server;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Task, context and message ids: version-7 UUIDs (RFC 9562 §5.7), a millisecond Unix timestamp
 * followed by 74 random bits from ThreadLocalRandom.
 *
 * <p>Why time-ordered: a durable store indexes tasks and contexts by id. With random (version-4)
 * ids every new task lands on a random page of each such index, and each of those pages is written
 * again at every commit; ids that grow with time land together at the index's end, a few pages per
 * commit for many tasks. The benchmark's profile of the SQLite store showed those random pages as a
 * fifth of its writer's time.
 *
 * <p>Why not {@link UUID#randomUUID()}: it draws from one shared SecureRandom behind a lock, which
 * showed in the benchmark's profile at 64 concurrent requests. These ids identify, they do not
 * authorise: what a caller may see is decided by who owns the task, never by an id being hard to
 * guess, so a fast generator loses nothing. Ids made within one millisecond are not ordered among
 * themselves, which costs nothing: locality needs only that they share the index's end.
 */
public final class RandomIds {
    private RandomIds() {
    }

    public static String next() {
        return next(System.currentTimeMillis()).toString();
    }

    static UUID next(long unixMillis) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        // unix_ts_ms (48 bits) | ver 0111 (4 bits) | rand_a (12 bits)
        long most = (unixMillis << 16) | 0x7000L | (r.nextInt() & 0x0FFFL);
        // var 10 (2 bits) | rand_b (62 bits)
        long least = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(most, least);
    }
}
