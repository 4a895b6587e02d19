package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import legate.a2a.server.task.StoredPushConfig;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The push configurations in the file (README "Push notifications"): kept across a reopen with
 * their delivery progress, in registration order, resumed while their task runs or has events
 * unsent, and deleted with their task by retention.
 */
class SqlitePushConfigsTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00.123Z");
    @TempDir
    Path dir;

    private static StoredPushConfig config(String taskId, String id, String url, long deliveredSeq) {
        return StoredPushConfig.registered(TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId(id)
                .setUrl(url).setToken("tok-" + id).build(), deliveredSeq);
    }

    @Test
    void configurationsAndProgressSurviveAReopenAndGoWithTheirTask() {
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        StoredPushConfig w1 = config("t1", "w1", "https://a.example/1", 1);
        try (SqliteTaskStore store = SqliteTaskStore.open(dir)) {
            // An inline configuration is stored before its new task's first event.
            store.savePushConfig(config("t1", "w0", "https://a.example/0", 0));
            assertThat(store.pushConfigsInFlight()).extracting(StoredPushConfig::id).containsExactly("w0");
            store.append(h.created(), false);
            store.savePushConfig(w1);
            store.savePushConfig(config("t1", "w2", "https://a.example/2", 0));
            // Replaced, it keeps its place in the order.
            store.savePushConfig(config("t1", "w0", "https://a.example/zero", 0));
            store.savePushProgress(w1.failedAttempt(T0));
            assertThat(store.deletePushConfig("t1", "w2")).isTrue();
            assertThat(store.deletePushConfig("t1", "w2")).isFalse();
            // A progress for a configuration deleted meanwhile does not bring it back.
            store.savePushProgress(config("t1", "w2", "https://a.example/2", 5));
        }
        try (SqliteTaskStore store = SqliteTaskStore.open(dir)) {
            assertThat(store.pushConfigs("t1")).extracting(StoredPushConfig::id).containsExactly("w0", "w1");
            StoredPushConfig kept = store.pushConfigs("t1").get(1);
            assertThat(kept).isEqualTo(new StoredPushConfig(w1.config(), 1, 1, T0.truncatedTo(ChronoUnit.MILLIS)));
            assertThat(store.pushConfigs("t1").get(0).config().getUrl()).isEqualTo("https://a.example/zero");

            store.append(h.status(TaskState.TASK_STATE_COMPLETED, T0, "Done."), true);
            // Terminal, w1 has event 2 unsent, w0 none delivered: both resumed; once delivered, neither.
            assertThat(store.pushConfigsInFlight()).extracting(StoredPushConfig::id).containsExactly("w0", "w1");
            for (StoredPushConfig c : store.pushConfigs("t1")) {
                store.savePushProgress(c.deliveredUpTo(2));
            }
            assertThat(store.pushConfigsInFlight()).isEmpty();
            assertThat(store.deleteTerminalBefore(T0.plusSeconds(1))).isEqualTo(1);
            assertThat(store.pushConfigs("t1")).isEmpty();
        }
    }
}
