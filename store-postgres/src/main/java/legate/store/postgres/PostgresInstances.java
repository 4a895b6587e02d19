package legate.store.postgres;

import java.net.URI;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.UnsettledTasks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instances of one agent on one PostgreSQL database, as the {@link InstanceGroup} of each:
 * a row per instance with a heartbeat, a lease per conversation ({@link ContextLeases}), and the
 * events of a turn announced to the other instances at commit ({@link EventNotifications}).
 *
 * <p>Each instance, every heartbeat, renews its own row and looks for instances whose heartbeat
 * expired: it fails their running tasks ("instance lost", naming the instance), then deletes their
 * row, which frees their leases. An instance that receives a turn for a conversation whose holder
 * is gone does the same for that conversation before it runs the turn, so the next task runs
 * without waiting for the next heartbeat. Several instances may do this for the same lost one at
 * once: a task's log accepts one next event, so each task is failed once.
 *
 * <p>An instance stopped on purpose fails its own running tasks as interrupted by a restart, and
 * leaves the group at once.
 */
public final class PostgresInstances implements InstanceGroup {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresInstances.class);

    private final ContextLeases leases;
    private final EventNotifications notifications;
    private final InstanceSettings settings;
    private final ScheduledExecutorService heartbeat;
    private final Runnable drain;
    private volatile URI url;
    private volatile UnsettledTasks unsettled;
    private volatile byte[] peerKey;

    /** @param drain waits for this instance's queued appends to be committed, so the tables show its tasks as they are */
    PostgresInstances(ContextLeases leases, EventNotifications notifications, InstanceSettings settings, Runnable drain) {
        this.drain = drain;
        this.leases = leases;
        this.notifications = notifications;
        this.settings = settings;
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("legate-postgres-heartbeat").daemon().factory());
    }

    @Override
    public void join(int boundPort, UnsettledTasks unsettled) {
        this.unsettled = unsettled;
        URI self = settings.url().apply(boundPort);
        this.url = self;
        int interrupted = 0;
        for (ContextLeases.Instance previous : leases.previousRuns(settings.id(), self)) {
            interrupted += failAll(leases.unsettledOf(previous.id()), null);
            leases.forget(previous.id());
        }
        interrupted += failAll(leases.unsettledUnleased(), null);
        if (interrupted > 0) {
            LOG.info("{} task(s) were running when this instance last stopped; they are now FAILED as interrupted",
                    interrupted);
        }
        leases.register(settings.id(), self, settings.leaseTtl());
        reapLost();
        notifications.start();
        long every = settings.heartbeat().toMillis();
        heartbeat.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
        LOG.info("instance {} at {} joined the instances on this database (lease {} ms, heartbeat {} ms)",
                settings.id(), self, settings.leaseTtl().toMillis(), every);
    }

    /** Read once, by the server as it is made (before it serves): the database's row, made here if missing. */
    @Override
    public byte[] peerKey() {
        byte[] key = peerKey;
        if (key == null) {
            synchronized (this) {
                key = peerKey;
                if (key == null) {
                    key = leases.peerKey(new SecureRandom());
                    peerKey = key;
                }
            }
        }
        return key.clone();
    }

    @Override
    public Optional<URI> url() {
        return Optional.ofNullable(url);
    }

    @Override
    public Optional<URI> runnerElsewhere(String contextId) {
        return switch (leases.place(contextId, settings.id())) {
            case ContextLeases.Placement.Here here -> Optional.empty();
            case ContextLeases.Placement.Elsewhere there -> Optional.of(URI.create(there.holder().url()));
            case ContextLeases.Placement.TakenOver over -> {
                int failed = failAll(leases.unsettledIn(contextId), over.previous());
                LOG.info("took over context {} from {}, which is gone; {} of its task(s) there FAILED as instance lost",
                        contextId, over.previous(), failed);
                yield Optional.empty();
            }
        };
    }

    @Override
    public Watch watch(String taskId, Runnable appended) {
        return notifications.watch(taskId, appended);
    }

    /** How many times the listener for other instances' events has connected (a test's view of a reconnection). */
    int listenerConnects() {
        return notifications.connects();
    }

    private void beat() {
        try {
            if (!leases.heartbeat(settings.id())) {
                LOG.warn("instance {} was found lost by another instance (its heartbeat was older than {} ms):"
                        + " its conversations and running tasks were given up; registering again",
                        settings.id(), settings.leaseTtl().toMillis());
                leases.register(settings.id(), url, settings.leaseTtl());
            }
            reapLost();
        } catch (RuntimeException e) {
            LOG.warn("instance {}: heartbeat failed: {}", settings.id(), e.getMessage());
        }
    }

    /** Fails the running tasks of every instance whose heartbeat expired, then forgets it. */
    private void reapLost() {
        for (ContextLeases.Instance lost : leases.expired(settings.id())) {
            int failed = failAll(leases.unsettledOf(lost.id()), lost);
            leases.forget(lost.id());
            LOG.info("{} is gone (no heartbeat for {} ms or more); {} of its task(s) FAILED as instance lost",
                    lost, settings.leaseTtl().toMillis(), failed);
        }
    }

    /** @param lost the instance that ran them, or null for this instance's own previous run */
    private int failAll(List<StoredTask> tasks, ContextLeases.Instance lost) {
        int failed = 0;
        for (StoredTask t : tasks) {
            if (lost == null ? unsettled.failInterrupted(t) : unsettled.failLost(t, lost.toString())) {
                failed++;
            }
        }
        return failed;
    }

    @Override
    public void close() {
        heartbeat.shutdownNow();
        notifications.close();
        UnsettledTasks u = unsettled;
        if (u == null) {
            return;
        }
        try {
            // The server abandoned its running turns: they end here, not a lease's time later as lost.
            // Drained first: read before its last events are committed, a task shows an older
            // number, its FAILED event is refused, and it stays WORKING with no instance to end it.
            drain.run();
            failAll(leases.unsettledOf(settings.id()), null);
            leases.forget(settings.id());
        } catch (RuntimeException e) {
            LOG.warn("instance {} could not leave the group cleanly ({}); the others will find it lost", settings.id(),
                    e.getMessage());
        }
    }
}
