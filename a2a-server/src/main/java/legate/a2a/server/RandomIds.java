package legate.a2a.server;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random version-4 UUIDs for task, context and message ids, drawn from ThreadLocalRandom.
 *
 * <p>Why not {@link UUID#randomUUID()}: it draws from one shared SecureRandom behind a lock, which
 * showed in the benchmark's profile at 64 concurrent requests. These ids identify, they do not
 * authorise: nothing on this server is protected by an id being hard to guess (ListTasks lists
 * them all), so a fast generator loses nothing.
 */
public final class RandomIds {
    private RandomIds() {
    }

    public static String next() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long most = (r.nextLong() & ~0xF000L) | 0x4000L;
        long least = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(most, least).toString();
    }
}
