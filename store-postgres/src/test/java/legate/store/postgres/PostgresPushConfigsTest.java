package legate.store.postgres;

import static legate.store.postgres.TestTasks.moved;
import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.status;
import static legate.store.postgres.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import legate.a2a.server.task.StoredPushConfig;
import legate.testsupport.Cleanup;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The push configurations in PostgreSQL (README "Push notifications", migration V4): kept across
 * a reopen with their delivery progress, in registration order, resumed while their task runs or
 * has events unsent, and deleted with their task by retention. A real server, started by the build.
 */
class PostgresPushConfigsTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static PostgresServer server;

    @BeforeAll
    static void startServer() {
        server = cleanup.register(PostgresServer.start());
    }

    private static StoredPushConfig config(String taskId, String id, String url, long deliveredSeq) {
        return StoredPushConfig.registered(TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId(id)
                .setUrl(url).setToken("tok-" + id).build(), deliveredSeq);
    }

    @Test
    void configurationsAndProgressSurviveAReopenAndGoWithTheirTask() {
        DatabaseUrl url = server.freshDatabase();
        Task t = task("t1", "c1", TaskState.TASK_STATE_WORKING, 1_000, 0);
        StoredPushConfig w1 = config("t1", "w1", "https://a.example/1", 1);
        Instant first = Instant.parse("2026-11-30T10:00:00.123Z");
        try (PostgresTaskStore store = PostgresTaskStore.open(url)) {
            // An inline configuration is stored before its new task's first event.
            store.savePushConfig(config("t1", "w0", "https://a.example/0", 0));
            assertThat(store.pushConfigsInFlight()).extracting(StoredPushConfig::id).containsExactly("w0");
            store.append(opened(1, t), true);
            store.savePushConfig(w1);
            store.savePushConfig(config("t1", "w2", "https://a.example/2", 0));
            store.savePushConfig(config("t1", "w0", "https://a.example/zero", 0));
            store.savePushProgress(w1.failedAttempt(first));
            assertThat(store.deletePushConfig("t1", "w2")).isTrue();
            assertThat(store.deletePushConfig("t1", "w2")).isFalse();
            store.savePushProgress(config("t1", "w2", "https://a.example/2", 5));
        }
        try (PostgresTaskStore store = PostgresTaskStore.open(url)) {
            assertThat(store.pushConfigs("t1")).extracting(StoredPushConfig::id).containsExactly("w0", "w1");
            assertThat(store.pushConfigs("t1").get(1)).isEqualTo(new StoredPushConfig(w1.config(), 1, 1, first));
            assertThat(store.pushConfigs("t1").get(0).config().getUrl()).isEqualTo("https://a.example/zero");

            store.append(status(2, moved(t, TaskState.TASK_STATE_COMPLETED, 1_001)), true);
            assertThat(store.pushConfigsInFlight()).extracting(StoredPushConfig::id).containsExactly("w0", "w1");
            for (StoredPushConfig c : store.pushConfigs("t1")) {
                store.savePushProgress(c.deliveredUpTo(2));
            }
            assertThat(store.pushConfigsInFlight()).isEmpty();
            assertThat(store.deleteTerminalBefore(Instant.ofEpochSecond(3_000))).isEqualTo(1);
            assertThat(store.pushConfigs("t1")).isEmpty();
        }
    }
}
