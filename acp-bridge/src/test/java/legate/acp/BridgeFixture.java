package legate.acp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.RequestHandler;
import legate.a2a.server.task.TaskStore;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.AdapterRegistry;
import legate.acp.adapter.Backend;
import legate.acp.adapter.ConversationRecords;
import legate.acp.bridge.AcpExecutor;
import legate.acp.bridge.BridgeCard;
import legate.a2a.server.task.Subscription;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.log.BridgeTelemetry;
import legate.acp.permission.PermissionRules;
import legate.acp.permission.PermissionPolicy;
import legate.acp.protocol.Implementation;
import legate.acp.protocol.InitializeResponse;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.Task;

/** The bridge as the A2A request handler sees it: registry, executor and handler, over real child processes. */
public final class BridgeFixture implements AutoCloseable {
    public static final Duration IDLE = Duration.ofMinutes(5);
    /**
     * The tests of other rules share one fixture across many conversations and must not meet
     * ACP_MAX_AGENTS; the limit has its own test, which passes its own.
     */
    private static final int MANY_AGENTS = 256;

    public final AdapterRegistry registry;
    public final RequestHandler handler;
    /** Released each time a cancel has reached a running turn's signal or the executor's parked-task hook. */
    public final Semaphore cancelsDelivered = new Semaphore(0);
    /** Released each time an execution of the bridge's executor has returned (its task settled). */
    public final Semaphore executionsEnded = new Semaphore(0);
    private final ExecutorService turns = Executors.newVirtualThreadPerTaskExecutor();

    public BridgeFixture(Backend backend, Path sandbox, ProcessLauncher launcher, PermissionPolicy policy, BridgeLogs logs,
                  Clock clock) {
        this(backend, sandbox, launcher, policy, logs, clock, AcpExecutor.DEFAULT_ASK_TIMEOUT, ConversationRecords.NONE);
    }

    /** The same, reporting metrics and spans into {@code telemetry}. */
    public BridgeFixture(Backend backend, Path sandbox, ProcessLauncher launcher, PermissionPolicy policy, BridgeLogs logs,
                  Clock clock, BridgeTelemetry telemetry) {
        this(backend, sandbox, launcher, policy, logs, clock, AcpExecutor.DEFAULT_ASK_TIMEOUT, ConversationRecords.NONE,
                new InMemoryTaskStore(), MANY_AGENTS, telemetry);
    }

    /** @param maxAgents the most agent processes at once (ACP_MAX_AGENTS) */
    public BridgeFixture(Backend backend, Path sandbox, ProcessLauncher launcher, PermissionPolicy policy, BridgeLogs logs,
                  Clock clock, int maxAgents) {
        this(backend, sandbox, launcher, policy, logs, clock, AcpExecutor.DEFAULT_ASK_TIMEOUT, ConversationRecords.NONE,
                new InMemoryTaskStore(), maxAgents);
    }

    public BridgeFixture(Backend backend, Path sandbox, ProcessLauncher launcher, PermissionPolicy policy, BridgeLogs logs,
                  Clock clock, Duration askTimeout, ConversationRecords records) {
        this(backend, sandbox, launcher, policy, logs, clock, askTimeout, records, new InMemoryTaskStore(), MANY_AGENTS);
    }

    public BridgeFixture(Backend backend, Path sandbox, ProcessLauncher launcher, PermissionPolicy policy, BridgeLogs logs,
                  Clock clock, Duration askTimeout, ConversationRecords records, TaskStore store) {
        this(backend, sandbox, launcher, policy, logs, clock, askTimeout, records, store, MANY_AGENTS);
    }

    public BridgeFixture(Backend backend, Path sandbox, ProcessLauncher launcher, PermissionPolicy policy, BridgeLogs logs,
                  Clock clock, Duration askTimeout, ConversationRecords records, TaskStore store, int maxAgents) {
        this(backend, sandbox, launcher, policy, logs, clock, askTimeout, records, store, maxAgents,
                BridgeTelemetry.none(backend.id()));
    }

    /**
     * @param askTimeout how long a question waits for its answer (ACP_ASK_TIMEOUT_MS)
     * @param records where conversations' records are kept and found (the task store's context state in a bridge)
     * @param store where the tasks are kept: share one between two fixtures to play a restart
     * @param maxAgents the most agent processes at once (ACP_MAX_AGENTS)
     * @param telemetry where metrics and spans go
     */
    public BridgeFixture(Backend backend, Path sandbox, ProcessLauncher launcher, PermissionPolicy policy, BridgeLogs logs,
                  Clock clock, Duration askTimeout, ConversationRecords records, TaskStore store, int maxAgents,
                  BridgeTelemetry telemetry) {
        this(backend, sandbox, launcher, policy, logs, clock, askTimeout, records, store, maxAgents, telemetry, 0);
    }

    /** @param maxTasksPerPrincipal the most tasks the (anonymous) caller may have running (MAX_TASKS_PER_PRINCIPAL); 0: no limit */
    public BridgeFixture(Backend backend, Path sandbox, ProcessLauncher launcher, PermissionPolicy policy, BridgeLogs logs,
                  Clock clock, Duration askTimeout, ConversationRecords records, TaskStore store, int maxAgents,
                  BridgeTelemetry telemetry, int maxTasksPerPrincipal) {
        AdapterConfig config = new AdapterConfig(sandbox, null, IDLE, Duration.ofSeconds(20), Duration.ofMillis(300),
                1024 * 1024, maxAgents);
        InitializeResponse init = new InitializeResponse(1, new Implementation("fake-acp-agent", "Fake Agent", "9.9.9"), List.of());
        this.registry = new AdapterRegistry(backend.namedBy(init), config, launcher, policy, logs, clock, records,
                telemetry);
        this.handler = new RequestHandler(new CancelCounting(new AcpExecutor(registry, askTimeout), cancelsDelivered,
                executionsEnded), store,
                BridgeCard.build(backend, init, null, "http://127.0.0.1:1/"), null, Clock.systemUTC(),
                () -> UUID.randomUUID().toString(), Duration.ofSeconds(20), turns, maxTasksPerPrincipal);
    }

    public BridgeFixture(Backend backend, Path sandbox) {
        this(backend, sandbox, ProcessLauncher.system(), PermissionRules.builtIn(backend.supervisedModeId(), false),
                BridgeLogs.disabled(), Clock.systemUTC());
    }

    /** A streaming SendMessage with one text part; {@code taskId} continues a task when not empty. */
    public StreamRecorder send(String contextId, String taskId, String text) {
        return sendParts(contextId, taskId, text == null ? List.of() : List.of(Part.newBuilder().setText(text).build()));
    }

    /** A streaming SendMessage with the given parts. */
    public StreamRecorder sendParts(String contextId, String taskId, List<Part> parts) {
        Message.Builder m = Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER)
                .setContextId(contextId).setTaskId(taskId).addAllParts(parts);
        return record(handler.sendStreamingMessage(SendMessageRequest.newBuilder().setMessage(m).build()));
    }

    /** Hands what the subscription delivers to a recorder, on the publishing thread, as a stream response would. */
    private static StreamRecorder record(Subscription subscription) {
        StreamRecorder recorder = new StreamRecorder();
        subscription.deliverTo(signal -> {
            switch (signal) {
                case Subscription.Signal.Event e -> recorder.onEvent(e.event());
                case Subscription.Signal.End end -> recorder.onEnd();
                case Subscription.Signal.Failure f -> recorder.onFailure(f.error());
            }
        });
        return recorder;
    }

    /** Sends {@code text} as a new task in the conversation and waits for the end of its stream. */
    public StreamRecorder run(String contextId, String text) throws InterruptedException {
        return send(contextId, "", text).awaitEnd();
    }

    /** The final answer text of a completed task. */
    public static String answer(StreamRecorder r) {
        assertThat(r.artifacts()).as("artifacts of a task that said %s", r.said()).isNotEmpty();
        return r.artifacts().get(r.artifacts().size() - 1).getParts(0).getText();
    }

    /** Asks the fake agent of a conversation for its pid and its grandchild's (-1 without one). */
    public long[] pids(String contextId) throws InterruptedException {
        String[] p = answer(run(contextId, "pids")).split(" ");
        return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1])};
    }

    public Task cancel(String taskId) {
        return handler.cancelTask(CancelTaskRequest.newBuilder().setId(taskId).build());
    }

    /** The bridge's executor, telling the test when a cancel has reached it. */
    private record CancelCounting(AgentExecutor executor, Semaphore delivered, Semaphore ended) implements AgentExecutor {
        @Override
        public void execute(RequestContext context, EventSink events) throws Exception {
            context.cancel().onCancel(delivered::release);
            try {
                executor.execute(context, events);
            } finally {
                ended.release();
            }
        }

        @Override
        public void cancel(String taskId) {
            executor.cancel(taskId);
            delivered.release();
        }
    }

    @Override
    public void close() {
        registry.close();
        turns.shutdownNow();
    }
}
