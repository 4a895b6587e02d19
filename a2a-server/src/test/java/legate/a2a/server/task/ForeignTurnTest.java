package legate.a2a.server.task;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SubscribeToTask of a task whose turn runs on another instance (README "Several instances on one
 * PostgreSQL"), without a database: the other instance's appends go straight into the shared store
 * and the test announces them as the store's notifications would. The stream shows the snapshot,
 * then each announced event once with its number, across INPUT_REQUIRED and the next turn, and
 * closes at the terminal event (A2A §3.1.6), giving up its watch; a resumed one starts after its
 * Last-Event-ID and closes where the runner's own streams close; a reader that goes away gives its
 * watch up too.
 */
class ForeignTurnTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private final Announcer group = new Announcer();
    private final ExecutorService turns = Executors.newVirtualThreadPerTaskExecutor();
    private final RequestHandler handler = new RequestHandler((ctx, events) -> {
        throw new AssertionError("no turn runs on this instance");
    }, store, AgentCard.newBuilder().setName("here").setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
            .build(), Clock.systemUTC(), () -> "id", Duration.ofSeconds(5), turns, group);

    /** Another instance's store notifications, sent by hand; every conversation runs elsewhere. */
    private static final class Announcer implements InstanceGroup {
        final Map<String, Set<Runnable>> watchers = new ConcurrentHashMap<>();

        void announce(String taskId) {
            watchers.getOrDefault(taskId, Set.of()).forEach(Runnable::run);
        }

        @Override
        public void join(int boundPort, UnsettledTasks unsettled) {
        }

        @Override
        public Optional<URI> runnerElsewhere(String contextId) {
            return Optional.of(URI.create("http://127.0.0.1:1/"));
        }

        @Override
        public Watch watch(String taskId, Runnable appended) {
            Runnable w = appended::run;
            watchers.computeIfAbsent(taskId, id -> ConcurrentHashMap.newKeySet()).add(w);
            return () -> watchers.get(taskId).remove(w);
        }

        @Override
        public void close() {
        }
    }

    @AfterEach
    void stop() {
        turns.shutdownNow();
    }

    private static Task task(TaskState state) {
        return Task.newBuilder().setId("t").setContextId("c").setStatus(TaskStatus.newBuilder().setState(state)
                .setTimestamp(Timestamp.newBuilder().setSeconds(1_700_000_000L))).build();
    }

    /** What the instance that runs the turn appends: the Task first, then status updates. */
    private void appendedElsewhere(long seq, TaskState state) {
        Task t = task(state);
        StreamResponse event = seq == 1 ? StreamResponse.newBuilder().setTask(t).build()
                : StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder().setTaskId("t")
                        .setContextId("c").setStatus(t.getStatus())).build();
        store.append(new TaskEvent(seq, event, t), false);
    }

    private static Subscription.Signal.Event event(Subscription s) throws InterruptedException {
        Subscription.Signal signal = s.poll(WAIT);
        assertThat(signal).isInstanceOf(Subscription.Signal.Event.class);
        return (Subscription.Signal.Event) signal;
    }

    private static TaskState state(Subscription.Signal.Event e) {
        return e.event().hasTask() ? e.event().getTask().getStatus().getState()
                : e.event().getStatusUpdate().getStatus().getState();
    }

    @Test
    void aFollowerGetsTheSnapshotThenEachAnnouncedEventOnceAcrossTheQuestionAndClosesAtTheTerminalState()
            throws Exception {
        appendedElsewhere(1, TaskState.TASK_STATE_WORKING);
        Subscription s = handler.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId("t").build());
        Subscription.Signal.Event snapshot = event(s);
        // PROTOCOL (A2A §3.1.6): the task first, with the number of the latest event it shows.
        assertThat(snapshot.event().hasTask()).isTrue();
        assertThat(snapshot.seq()).isEqualTo(1);

        appendedElsewhere(2, TaskState.TASK_STATE_WORKING);
        group.announce("t");
        group.announce("t");
        Subscription.Signal.Event working = event(s);
        assertThat(working.seq()).isEqualTo(2);

        appendedElsewhere(3, TaskState.TASK_STATE_INPUT_REQUIRED);
        group.announce("t");
        Subscription.Signal.Event asked = event(s);
        assertThat(asked.seq()).isEqualTo(3);
        assertThat(state(asked)).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        // PROTOCOL (A2A §3.1.6): still open, watching: the reply's turn runs on the other instance.
        assertThat(group.watchers.get("t")).hasSize(1);

        appendedElsewhere(4, TaskState.TASK_STATE_WORKING);
        appendedElsewhere(5, TaskState.TASK_STATE_COMPLETED);
        group.announce("t");
        assertThat(event(s).seq()).isEqualTo(4);
        Subscription.Signal.Event completed = event(s);
        assertThat(completed.seq()).isEqualTo(5);
        assertThat(state(completed)).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(s.poll(WAIT)).isInstanceOf(Subscription.Signal.End.class);
        assertThat(group.watchers.get("t")).isEmpty();
    }

    @Test
    void aParkedTaskIsFollowedIntoTheTurnItsReplyStartsOnTheOtherInstance() throws Exception {
        appendedElsewhere(1, TaskState.TASK_STATE_WORKING);
        appendedElsewhere(2, TaskState.TASK_STATE_INPUT_REQUIRED);
        Subscription s = handler.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId("t").build());
        Subscription.Signal.Event snapshot = event(s);
        assertThat(snapshot.event().hasTask()).isTrue();
        assertThat(snapshot.seq()).isEqualTo(2);

        // The reply reached the other instance (here, or forwarded there): its turn's events, then the end.
        appendedElsewhere(3, TaskState.TASK_STATE_WORKING);
        appendedElsewhere(4, TaskState.TASK_STATE_FAILED);
        group.announce("t");
        assertThat(event(s).seq()).isEqualTo(3);
        assertThat(state(event(s))).isEqualTo(TaskState.TASK_STATE_FAILED);
        assertThat(s.poll(WAIT)).isInstanceOf(Subscription.Signal.End.class);
        assertThat(group.watchers.get("t")).isEmpty();
    }

    @Test
    void aResumedStreamStartsAfterItsLastEventIdAndEndsWithTheTerminalEvent() throws Exception {
        appendedElsewhere(1, TaskState.TASK_STATE_WORKING);
        appendedElsewhere(2, TaskState.TASK_STATE_WORKING);
        Subscription s = handler.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId("t").build(), "1");
        assertThat(event(s).seq()).isEqualTo(2);

        appendedElsewhere(3, TaskState.TASK_STATE_FAILED);
        group.announce("t");
        Subscription.Signal.Event failed = event(s);
        assertThat(failed.seq()).isEqualTo(3);
        assertThat(state(failed)).isEqualTo(TaskState.TASK_STATE_FAILED);
        assertThat(s.poll(WAIT)).isInstanceOf(Subscription.Signal.End.class);
        assertThat(group.watchers.get("t")).isEmpty();
    }

    @Test
    void aFollowerThatGoesAwayGivesItsWatchUp() throws Exception {
        appendedElsewhere(1, TaskState.TASK_STATE_WORKING);
        Subscription s = handler.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId("t").build());
        event(s);
        assertThat(group.watchers.get("t")).hasSize(1);

        s.cancel();

        assertThat(group.watchers.get("t")).isEmpty();
    }
}
