package legate.a2a.server.task;

import java.time.Instant;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * A webhook registered on a task (A2A §3.1.7), as the task store keeps it: the configuration the
 * caller gave (its {@code taskId} and {@code id} set), and how far its deliveries have got, so that
 * a restart resumes them where they stopped.
 *
 * @param config the configuration as Get and List answer it
 * @param deliveredSeq the sequence number of the task's last event that is done with for this
 *                     webhook (delivered, coalesced or given up); the events after it are pending
 * @param attempts how many attempts the first pending event has had (0: none yet)
 * @param firstAttempt when the first pending event was first tried, null before its first attempt:
 *                     PUSH_MAX_AGE counts from there, across restarts
 */
public record StoredPushConfig(TaskPushNotificationConfig config, long deliveredSeq, int attempts,
                               Instant firstAttempt) {
    public StoredPushConfig {
        if (config.getTaskId().isEmpty() || config.getId().isEmpty()) {
            throw new IllegalArgumentException("a stored push configuration has its taskId and id set");
        }
        if (deliveredSeq < 0 || attempts < 0) {
            throw new IllegalArgumentException("deliveredSeq and attempts are never negative");
        }
    }

    /** A configuration none of whose events are delivered yet: those after {@code deliveredSeq} will be. */
    public static StoredPushConfig registered(TaskPushNotificationConfig config, long deliveredSeq) {
        return new StoredPushConfig(config, deliveredSeq, 0, null);
    }

    public String taskId() {
        return config.getTaskId();
    }

    public String id() {
        return config.getId();
    }

    /** The next event is done with: no attempt of it yet. */
    public StoredPushConfig deliveredUpTo(long seq) {
        return new StoredPushConfig(config, seq, 0, null);
    }

    /** One more failed attempt of the first pending event, the first at {@code at} when it is the first. */
    public StoredPushConfig failedAttempt(Instant at) {
        return new StoredPushConfig(config, deliveredSeq, attempts + 1, firstAttempt == null ? at : firstAttempt);
    }
}
