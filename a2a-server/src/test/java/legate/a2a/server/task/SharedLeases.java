package legate.a2a.server.task;

import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Several instances' view of one PostgreSQL, kept in process for tests: the conversation leases as
 * {@code store-postgres} {@code ContextLeases} keeps them (an atomic claim, kept by a live holder,
 * taken over from a gone one) and the task watches its LISTEN/NOTIFY serves. Each {@link #instance()}
 * is one server's {@link InstanceGroup}; a test announces a commit with {@link #watchers}.
 */
public final class SharedLeases {
    private final Map<String, URI> leases = new ConcurrentHashMap<>();
    private final Set<URI> live = ConcurrentHashMap.newKeySet();
    private final Map<String, Set<Runnable>> watchers = new ConcurrentHashMap<>();
    /** The secret the instances share, as store-postgres keeps it in the database. */
    private final byte[] peerKey = new SecureRandom().generateSeed(32);
    /** How the instances announce themselves: {@code http}, or {@code https} for instances serving TLS. */
    private final String scheme;

    public SharedLeases() {
        this("http");
    }

    public SharedLeases(String scheme) {
        this.scheme = scheme;
    }

    /** A new instance of the group, live from its join until its close. */
    public InstanceGroup instance() {
        return new Instance();
    }

    /** One instance of a group in which the live instance at {@code holder} holds {@code contextId}. */
    public static InstanceGroup heldElsewhere(String contextId, URI holder) {
        SharedLeases leases = new SharedLeases();
        leases.hold(contextId, holder);
        return leases.instance();
    }

    /**
     * Leases {@code contextId} to the instance at {@code holder}, which counts as live: a peer that
     * joined and has not been found gone yet, reachable or not.
     */
    public void hold(String contextId, URI holder) {
        live.add(holder);
        leases.put(contextId, holder);
    }

    /** The live instance that holds {@code contextId}'s lease now, if any. */
    public Optional<URI> holder(String contextId) {
        URI h = leases.get(contextId);
        return h != null && live.contains(h) ? Optional.of(h) : Optional.empty();
    }

    /** The watches open on {@code taskId} now: what a commit of its log wakes. */
    public Set<Runnable> watchers(String taskId) {
        return watchers.getOrDefault(taskId, Set.of());
    }

    /**
     * Whether every watch on {@code taskId} was given up within {@code timeout}. A server gives its
     * watch up once the stream has ended on its side, which may be just after the caller read the
     * stream's end, so a test waits for the release (each one wakes it) rather than looking once.
     */
    public boolean awaitNoWatchers(String taskId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (watchers) {
            while (!watchers(taskId).isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                watchers.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    private final class Instance implements InstanceGroup {
        private volatile URI self;

        @Override
        public byte[] peerKey() {
            return peerKey.clone();
        }

        @Override
        public void join(int boundPort, UnsettledTasks unsettled) {
            self = URI.create(scheme + "://127.0.0.1:" + boundPort + "/");
            live.add(self);
        }

        @Override
        public Optional<URI> runnerElsewhere(String contextId) {
            URI holder = leases.compute(contextId, (c, h) -> h == null || !live.contains(h) ? self : h);
            return holder.equals(self) ? Optional.empty() : Optional.of(holder);
        }

        @Override
        public Watch watch(String taskId, Runnable appended) {
            Runnable w = appended::run;
            watchers.computeIfAbsent(taskId, id -> ConcurrentHashMap.newKeySet()).add(w);
            return () -> {
                watchers.get(taskId).remove(w);
                synchronized (watchers) {
                    watchers.notifyAll();
                }
            };
        }

        @Override
        public void close() {
            live.remove(self);
        }
    }
}
