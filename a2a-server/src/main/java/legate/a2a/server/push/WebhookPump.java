package legate.a2a.server.push;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import legate.a2a.model.TaskStates;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredPushConfig;
import lf.a2a.v1.StreamResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deliveries of one webhook of one task, in the order of the task's log: one event at a time,
 * the next only once the one before is delivered, coalesced or given up, so a later event never
 * overtakes an earlier one. It runs on a virtual thread of its own only while it has work, so a
 * slow or dead webhook holds up nothing but itself.
 *
 * <p>What is pending is not held here: it is the task's log after {@link StoredPushConfig#deliveredSeq()},
 * read from the store, which also keeps the progress (the cursor, the attempts of the first pending
 * event): a restart resumes where the last run stopped. At most PUSH_QUEUE_MAX events are read at a
 * time.
 */
final class WebhookPump {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookPump.class);

    private final PushDispatcher dispatcher;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean dirty;
    private volatile boolean removed;
    private volatile StoredPushConfig state;

    WebhookPump(PushDispatcher dispatcher, StoredPushConfig state) {
        this.dispatcher = dispatcher;
        this.state = state;
    }

    String taskId() {
        return state.taskId();
    }

    String id() {
        return state.id();
    }

    /** The configuration was deleted (Delete, 410 Gone, or it was replaced): nothing more is sent. */
    void remove() {
        removed = true;
    }

    /** New events may be pending: runs unless it is running already, which then reads them too. */
    void wake() {
        dirty = true;
        if (running.compareAndSet(false, true)) {
            if (!dispatcher.run(this::drain)) {
                running.set(false);
            }
        }
    }

    private void drain() {
        boolean idle = false;
        try {
            while (!removed && !dispatcher.closed()) {
                dirty = false;
                List<LoggedEvent> pending = coalesce(dispatcher.store().eventsAfter(taskId(), state.deliveredSeq()),
                        dispatcher.policy().queueMax());
                if (pending.isEmpty()) {
                    idle = true;
                    break;
                }
                for (LoggedEvent e : pending) {
                    if (!deliver(e)) {
                        return;
                    }
                }
            }
        } catch (RuntimeException e) {
            // A store that failed (closing under us): the events stay pending for the next wake or start.
            LOG.warn("push: task {} webhook {}: {}", taskId(), redacted(), e.toString());
        } finally {
            running.set(false);
            if (dirty && !removed && !dispatcher.closed()) {
                // An append raced with the end of this run: its wake saw it running.
                wake();
            } else if (idle) {
                dispatcher.idle(this);
            }
        }
    }

    /** Tries one event until it is delivered or given up; false when the pump must stop (removed, gone, closing). */
    private boolean deliver(LoggedEvent event) {
        PushPolicy policy = dispatcher.policy();
        while (!removed && !dispatcher.closed()) {
            Instant now = dispatcher.clock().instant();
            WebhookPost.Outcome outcome = dispatcher.post().attempt(state.config(), event, now);
            if (dispatcher.closed()) {
                // Interrupted by the stop: not an attempt that counts; the next start makes it again.
                return false;
            }
            switch (outcome) {
                case WebhookPost.Outcome.Delivered d -> {
                    dispatcher.metrics().pushDelivery(true);
                    save(state.deliveredUpTo(event.seq()));
                    return true;
                }
                case WebhookPost.Outcome.Gone g -> {
                    LOG.info("push: task {} webhook {} answered 410 Gone; its configuration {} is removed",
                            taskId(), redacted(), id());
                    dispatcher.gone(this);
                    return false;
                }
                case WebhookPost.Outcome.Failed f -> {
                    StoredPushConfig failed = state.failedAttempt(now);
                    Duration wait = policy.backoff(failed.attempts(), dispatcher.random());
                    if (failed.attempts() >= policy.maxAttempts()
                            || now.plus(wait).isAfter(failed.firstAttempt().plus(policy.maxAge()))) {
                        // The failure record: a log line naming task, webhook and reason, and the counter.
                        LOG.warn("push: gave up delivering event {} of task {} to webhook {} (configuration {})"
                                + " after {} attempt(s): {}", event.seq(), taskId(), redacted(), id(),
                                failed.attempts(), f.reason());
                        dispatcher.metrics().pushDelivery(false);
                        save(failed.deliveredUpTo(event.seq()));
                        return true;
                    }
                    dispatcher.metrics().pushRetry();
                    LOG.debug("push: task {} webhook {} attempt {} failed ({}); next in {} ms", taskId(), redacted(),
                            failed.attempts(), f.reason(), wait.toMillis());
                    save(failed);
                    try {
                        Thread.sleep(wait);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }
            }
        }
        return false;
    }

    private void save(StoredPushConfig next) {
        state = next;
        if (!removed) {
            dispatcher.store().savePushProgress(next);
        }
    }

    /**
     * PUSH_QUEUE_MAX: past {@code max} pending events, the oldest non-terminal status updates that a
     * later status update supersedes are dropped (the receiver learns the later state anyway), never
     * the last status update (the terminal one, when the task has ended), never a Task or an
     * artifact update (an artifact's chunks add up; dropping one would corrupt it). Then at most
     * {@code max} are returned, oldest first.
     */
    static List<LoggedEvent> coalesce(List<LoggedEvent> pending, int max) {
        if (pending.size() <= max) {
            return pending;
        }
        int lastStatus = -1;
        for (int i = pending.size() - 1; i >= 0 && lastStatus < 0; i--) {
            if (pending.get(i).event().hasStatusUpdate()) {
                lastStatus = i;
            }
        }
        int excess = pending.size() - max;
        List<LoggedEvent> out = new ArrayList<>(pending.size());
        for (int i = 0; i < pending.size(); i++) {
            StreamResponse e = pending.get(i).event();
            boolean supersededStatus = i < lastStatus && e.hasStatusUpdate()
                    && !TaskStates.isTerminal(e.getStatusUpdate().getStatus().getState());
            if (excess > 0 && supersededStatus) {
                excess--;
                continue;
            }
            out.add(pending.get(i));
        }
        return out.size() <= max ? out : List.copyOf(out.subList(0, max));
    }

    /** The webhook without its query and fragment, which may carry a secret: what logs show. */
    private String redacted() {
        try {
            URI u = new URI(state.config().getUrl());
            return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort())
                    + (u.getRawPath() == null ? "" : u.getRawPath());
        } catch (URISyntaxException e) {
            return "(unparsable URL)";
        }
    }
}
