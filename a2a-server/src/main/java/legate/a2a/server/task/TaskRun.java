package legate.a2a.server.task;

import com.google.protobuf.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.TaskStates;
import legate.a2a.server.EventSink;
import legate.a2a.server.Reply;
import legate.a2a.server.RequestContext;
import legate.a2a.server.observe.ServerMetrics;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running turn of a task: the event sink its executor writes to, the lifecycle rules that sink
 * enforces, the stored task it keeps current, the subscribers it fans events out to, and the cancel
 * signal its executor reads.
 *
 * <p>All state changes happen under this object's lock, so an event is stored and delivered to
 * every subscriber before the next one is looked at, and a new subscriber's snapshot, or a resumed
 * stream's replay, can never miss or repeat an event. That one lock is why the class is over 400
 * lines: the lifecycle checks, the log, the fan-out and the resume must all be taken under it.
 */
final class TaskRun implements EventSink {
    private static final Logger LOG = LoggerFactory.getLogger(TaskRun.class);
    private final String taskId;
    private final String contextId;
    private final String owner;
    private final String executorName;
    private final TaskStore store;
    private final Clock clock;
    private final boolean newTask;
    private final List<Subscription> subscribers = new CopyOnWriteArrayList<>();
    /** The SubscribeToTask streams that follow the task beyond this turn; null until the turn is live. */
    private Followers followers;

    /** Completes with the first event; fails when the turn ends without one. */
    final CompletableFuture<StreamResponse> firstEvent = new CompletableFuture<>();
    /** Completes when a blocking SendMessage may answer: terminal, interrupted, or a Message. */
    final CompletableFuture<StreamResponse> turnEnded = new CompletableFuture<>();
    /** Completes when the task is terminal (what CancelTask waits for) or the turn is over. */
    final CompletableFuture<Void> settled = new CompletableFuture<>();
    /** Completes once the executor has returned and the run is no longer the task's live turn. */
    final CompletableFuture<Void> retired = new CompletableFuture<>();
    /**
     * Exists before the executor runs, so a cancel can never come too early for the turn to see it.
     * A turn that continues an execution across a question shares the execution's signal.
     */
    final CancelRequest cancel;
    /** The execution's place in its principal's count, shared like {@link #cancel}; given back while it waits at a question. */
    final TurnQuota.Place place;

    private Task current;
    private Message answer;
    private boolean finished;
    /** True once the server stopped while this turn ran: its task is left as stored, for a restart to fail. */
    private boolean abandoned;
    /** True once this turn's streams are over (a Message, a terminal or INPUT_REQUIRED event, or the turn's end). */
    private boolean streamsEnded;
    /** The sequence number of the task's latest logged event (0 for a new task). */
    private long lastSeq;
    /** The caller hears of the task from this turn's first event (returnImmediately, a stream): it must be durable. */
    private final boolean answersWithFirstEvent;
    /** The turn's caller is a stream ({@link #subscribeStream}): its frames, not the executor, wait for the creation's commit. */
    private boolean streamed;
    /** True once the executor asked a question it waits for ({@link #awaitReply}): it does not return at INPUT_REQUIRED. */
    private boolean continuesAfterQuestion;
    /** The reply the executor waits for; null when it waits for none. */
    private CompletableFuture<Reply> reply;
    /** True once a caller's reply was accepted for the waiting executor; it is handed over next, or given back. */
    private boolean replyClaimed;
    /** Completes when the claimed reply is given back ({@link #giveBackReply}) instead of handed over. */
    private CompletableFuture<Void> claimGivenBack;
    /** The turn the execution went on in after the caller's reply; null while this turn is the execution's. */
    private TaskRun successor;
    private final ServerMetrics metrics;
    private final long startedNanos = System.nanoTime();
    /** The state this turn is counted in by {@link ServerMetrics#moved}; null before its first task event and after it ends. */
    private TaskState counted;

    /**
     * @param owner the principal the task belongs to, recorded with its first event
     * @param lastSeq the sequence number of the stored task's latest event; 0 for a new task
     */
    TaskRun(String taskId, String contextId, String owner, String executorName, TaskStore store, Clock clock,
            boolean newTask, long lastSeq, boolean answersWithFirstEvent, TurnQuota.Place place, ServerMetrics metrics) {
        this(taskId, contextId, owner, executorName, store, clock, newTask, lastSeq, answersWithFirstEvent,
                new CancelRequest(), place, metrics);
    }

    /**
     * @param cancel the cancel signal of the execution this turn belongs to
     * @param place the execution's place in its principal's count
     * @param metrics where the turn is counted, by state while it runs and by how it ended
     */
    TaskRun(String taskId, String contextId, String owner, String executorName, TaskStore store, Clock clock,
            boolean newTask, long lastSeq, boolean answersWithFirstEvent, CancelRequest cancel, TurnQuota.Place place,
            ServerMetrics metrics) {
        this.metrics = metrics;
        this.cancel = cancel;
        this.place = place;
        this.owner = owner;
        this.lastSeq = lastSeq;
        this.answersWithFirstEvent = answersWithFirstEvent;
        this.taskId = taskId;
        this.contextId = contextId;
        this.executorName = executorName;
        this.store = store;
        this.clock = clock;
        this.newTask = newTask;
    }

    /** Set once the turn is live ({@link LiveTurns#started}), before it publishes anything. */
    synchronized void followedBy(Followers f) {
        followers = f;
    }

    @Override
    public String taskId() {
        return taskId;
    }

    @Override
    public String contextId() {
        return contextId;
    }

    /** The principal the task belongs to ("" for the anonymous caller). */
    String owner() {
        return owner;
    }

    synchronized Task current() {
        return current;
    }

    /** True once the turn has asked for input: its executor is about to return. */
    synchronized boolean askedForInput() {
        return current != null && current.getStatus().getState() == TaskState.TASK_STATE_INPUT_REQUIRED;
    }

    /**
     * Raises the cancel for this turn unless the turn is already over (its executor returned, it
     * reached a terminal state, or it parked the task in INPUT_REQUIRED and is returning); false
     * then, and the stored task alone decides what a cancel does. Atomic with {@link #finish}: a
     * turn that ends after this returned true sees the cancel.
     *
     * <p>DEFECT: a cancel that arrived between a turn's INPUT_REQUIRED and its executor's return
     * was handed to the turn, which no longer listened; the executor's parked-task hook was never
     * called, and the bridge kept the conversation's agent held by a task that had ended.
     */
    synchronized boolean requestCancel() {
        if (finished || (askedForInput() && !continuesAfterQuestion)
                || (current != null && TaskStates.isTerminal(current.getStatus().getState()))) {
            return false;
        }
        cancel.request();
        return true;
    }

    /** True once the executor has returned and the run has settled the task. */
    synchronized boolean isOver() {
        return finished;
    }

    /** True when the executor asked a question it waits for in this turn, so it will not return at INPUT_REQUIRED. */
    synchronized boolean continuesAfterQuestion() {
        return continuesAfterQuestion;
    }

    @Override
    public Optional<Reply> awaitReply(Message question, Duration timeout) throws InterruptedException {
        CompletableFuture<Reply> waiting = new CompletableFuture<>();
        synchronized (this) {
            if (reply != null) {
                throw violation("asked a question while it still waited for the answer to another");
            }
            // Before the question is published: a caller who answers the moment it arrives finds the turn waiting.
            reply = waiting;
            continuesAfterQuestion = true;
        }
        // DEFECT: an execution waiting here kept its principal's place, and a reply sent at the limit
        // was refused after it had been claimed: the execution waited forever. Waiting, it holds none
        // (README "Asking the caller"), so the caller who reads the question may start other tasks.
        place.giveBack();
        try {
            status(TaskState.TASK_STATE_INPUT_REQUIRED, question);
            CompletableFuture<Void> canceled = new CompletableFuture<>();
            cancel.onCancel(() -> canceled.complete(null));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                CompletableFuture<Void> givenBack;
                synchronized (this) {
                    if (waiting.isDone()) {
                        break;
                    }
                    long left = deadline - System.nanoTime();
                    if (!replyClaimed && (left <= 0 || cancel.isRequested())) {
                        // No reply was taken, and from now on none will be: a later message finds the turn still running.
                        reply = null;
                        return Optional.empty();
                    }
                    givenBack = replyClaimed ? claimGivenBack : null;
                }
                try {
                    if (givenBack != null) {
                        // A claimed reply is handed over by the request that claimed it, or given back if that request fails.
                        CompletableFuture.anyOf(waiting, givenBack).get();
                    } else {
                        CompletableFuture.anyOf(waiting, canceled).get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    }
                } catch (TimeoutException | ExecutionException e) {
                    // neither future fails; a timeout is decided on the next pass
                }
            }
            // A stop completes the reply with null.
            return Optional.ofNullable(waiting.getNow(null));
        } finally {
            // Whatever woke it, the execution runs again and counts (a reply's request took the place back already).
            place.takeBack();
        }
    }

    /**
     * Takes the caller's message as the answer the executor waits for; false when it waits for none
     * (it never asked, it stopped waiting, or the question has not been published yet). Called
     * under the task's lock.
     */
    synchronized boolean claimReply() {
        if (finished || reply == null || replyClaimed || reply.isDone() || !askedForInput()) {
            return false;
        }
        replyClaimed = true;
        claimGivenBack = new CompletableFuture<>();
        return true;
    }

    /**
     * The request that claimed the reply failed before handing it over: the execution waits again,
     * for another reply, its timeout or a cancel, as if the claim had never been.
     */
    synchronized void giveBackReply() {
        if (replyClaimed && !finished) {
            replyClaimed = false;
            claimGivenBack.complete(null);
        }
    }

    /**
     * The execution goes on in {@code next}, the turn the caller's reply opened: this turn is over
     * (it ended in INPUT_REQUIRED) and the waiting executor is given the reply.
     */
    void handOver(TaskRun next, RequestContext context) {
        CompletableFuture<Reply> waiting;
        synchronized (this) {
            successor = next;
            finished = true;
            waiting = reply;
            reply = null;
            replyClaimed = false;
            turnEnded.complete(null);
            settled.complete(null);
            endSubscribers();
            // This turn ended at its question (INPUT_REQUIRED); the execution is counted on in next.
            countEnd();
        }
        // The execution runs again in next from here, before its executor has even woken: counted, past the limit if need be.
        place.takeBack();
        waiting.complete(new Reply(context, next));
    }

    /** The turn the execution is in now: this one, or the last one a reply handed it over to. */
    synchronized TaskRun latest() {
        return successor == null ? this : successor.latest();
    }

    @Override
    public synchronized void publish(StreamResponse event) {
        // The opening snapshot of a continuation still shows the state the task was parked in
        // (INPUT_REQUIRED); it restates where the turn starts, it does not end the turn.
        boolean restatesParkedState = !newTask && current == null;
        StreamResponse applied = apply(event);
        if (!applied.hasMessage()) {
            // Acknowledge after commit: the event that ends the turn is durable before anyone hears
            // of it, and so is a new task's first event when the caller is told of it before the turn
            // ends (returnImmediately, a stream's first frame). The others are ordered in the log and
            // committed shortly after.
            // DEFECT: a task answered with returnImmediately, or streamed, was lost by a kill -9 before
            // its first commit, and a GetTask after the restart found no such task.
            boolean endsTurn = !restatesParkedState && TaskStates.endsTurn(current.getStatus().getState());
            if (endsTurn && TaskStates.isTerminal(current.getStatus().getState())) {
                // A caller told that the task ended may send the next one at once: the execution's
                // place is free before anyone hears of the end. DEFECT (issue 30): it was given back
                // only once the executor had returned, so a caller at MAX_TASKS_PER_PRINCIPAL who read
                // CANCELED or COMPLETED and sent again could be refused -32004.
                place.giveBack();
            }
            boolean answer = answersWithFirstEvent && current != null && lastSeq == 0;
            try {
                TaskEvent logged = new TaskEvent(++lastSeq, applied, current, owner);
                if (answer && streamed && !endsTurn) {
                    // DEFECT (issue 30): the stream's creation commit blocked the executor: each stream
                    // waited for a commit of its own before its turn went on, and its task and events
                    // took two batches of the writer, not one (streams/s 0.73x, CPU a stream 1.4x).
                    // Only the frames wait for the commit (held in the subscriptions); the turn goes
                    // on, and the creation rides in the group commit of the events after it.
                    CompletableFuture<Void> created = store.appendCommitted(logged);
                    for (Subscription s : subscribers) {
                        s.holdUntil(created, TaskRun::unrecordedError);
                    }
                    created.whenComplete((ok, failure) -> {
                        if (failure != null) {
                            LOG.warn("the store could not commit the creation of task {}; its stream ends with an"
                                    + " error", taskId, failure);
                        }
                    });
                } else {
                    store.append(logged, endsTurn || answer);
                }
            } catch (RuntimeException e) {
                unrecorded();
                throw e;
            }
        }
        if (!applied.hasMessage() && current.getStatus().getState() != counted) {
            metrics.moved(counted, current.getStatus().getState());
            counted = current.getStatus().getState();
        }
        long seq = applied.hasMessage() ? 0 : lastSeq;
        for (Subscription s : subscribers) {
            s.offer(applied, seq);
        }
        if (followers != null && !applied.hasMessage()) {
            // Under this lock too, so every follower gets the task's events in order, this turn's included.
            followers.published(taskId, applied, seq);
        }
        firstEvent.complete(applied);
        if (applied.hasMessage()) {
            turnEnded.complete(applied);
            endSubscribers();
            return;
        }
        TaskState state = current.getStatus().getState();
        if (restatesParkedState) {
            return;
        }
        if (TaskStates.endsTurn(state)) {
            turnEnded.complete(applied);
        }
        if (TaskStates.isTerminal(state)) {
            settled.complete(null);
        }
        // PEER (@a2a-js/sdk 1.2.0): a turn's stream (SendStreamingMessage, or one resumed with
        // Last-Event-ID) closes after a terminal or INPUT_REQUIRED update and stays open across
        // AUTH_REQUIRED (A2A §7.6.1: credentials may arrive out of band). A SubscribeToTask without
        // Last-Event-ID is no turn's stream: it follows the task to its terminal state (TaskFollower).
        if (TaskStates.isTerminal(state) || state == TaskState.TASK_STATE_INPUT_REQUIRED) {
            endSubscribers();
        }
    }

    /** Checks the event against the lifecycle, stores its effect, and returns it as delivered. */
    private StreamResponse apply(StreamResponse event) {
        if (abandoned) {
            throw new IllegalStateException("the server stopped during the turn of task " + taskId
                    + "; " + executorName + "'s " + kind(event) + " goes nowhere");
        }
        if (finished) {
            throw violation("published " + kind(event) + " after its turn ended");
        }
        if (answer != null) {
            // PROTOCOL (A2A §3.1.2): a Message answer is the whole response; nothing follows it.
            throw violation("published " + kind(event) + " after answering with a Message");
        }
        if (current != null && TaskStates.isTerminal(current.getStatus().getState())) {
            // PROTOCOL (A2A §3.1.3): a terminal task never changes again.
            throw violation("published " + kind(event) + " after the task reached "
                    + current.getStatus().getState());
        }
        switch (event.getPayloadCase()) {
            case TASK -> {
                Task t = event.getTask();
                if (!t.getId().equals(taskId) || !t.getContextId().equals(contextId)) {
                    throw violation("published a Task for " + t.getId() + "/" + t.getContextId()
                            + " in the turn of " + taskId + "/" + contextId);
                }
                if (!t.getStatus().hasTimestamp()) {
                    t = t.toBuilder().setStatus(t.getStatus().toBuilder().setTimestamp(now())).build();
                }
                current = t;
                return StreamResponse.newBuilder().setTask(current).build();
            }
            case MESSAGE -> {
                if (current != null) {
                    throw violation("published a Message after the task was created; "
                            + "use a status update to talk inside a task");
                }
                if (!newTask) {
                    throw violation("answered a message into existing task " + taskId
                            + " with a bare Message; a continuation must publish the Task first");
                }
                answer = event.getMessage();
                return event;
            }
            case STATUS_UPDATE -> {
                requireTask(event);
                TaskStatusUpdateEvent u = stamp(event.getStatusUpdate());
                Task.Builder t = current.toBuilder().setStatus(u.getStatus());
                if (u.getStatus().hasMessage()) {
                    // PEER (@a2a-js/sdk 1.2.0): the agent message of a status update joins the history.
                    t.addHistory(u.getStatus().getMessage());
                }
                current = t.build();
                return StreamResponse.newBuilder().setStatusUpdate(u).build();
            }
            case ARTIFACT_UPDATE -> {
                requireTask(event);
                TaskArtifactUpdateEvent u = event.getArtifactUpdate();
                checkIds(u.getTaskId(), u.getContextId(), "an artifact update");
                u = u.toBuilder().setTaskId(taskId).setContextId(contextId).build();
                current = withArtifact(current, u);
                return StreamResponse.newBuilder().setArtifactUpdate(u).build();
            }
            case PAYLOAD_NOT_SET -> throw violation("published an empty event");
            default -> throw violation("published an unknown event kind " + event.getPayloadCase());
        }
    }

    private void requireTask(StreamResponse event) {
        // PROTOCOL (A2A §3.1.2): the first event of a task stream is the Task itself.
        if (current == null) {
            throw violation("published " + kind(event) + " before the Task; the first event must be a Task or a Message");
        }
    }

    private TaskStatusUpdateEvent stamp(TaskStatusUpdateEvent u) {
        checkIds(u.getTaskId(), u.getContextId(), "a status update");
        TaskStatus status = u.getStatus();
        if (status.getState() == TaskState.TASK_STATE_UNSPECIFIED) {
            throw violation("published a status update without a state");
        }
        if (!status.hasTimestamp()) {
            status = status.toBuilder().setTimestamp(now()).build();
        }
        return u.toBuilder().setTaskId(taskId).setContextId(contextId).setStatus(status).build();
    }

    private void checkIds(String t, String c, String what) {
        if ((!t.isEmpty() && !t.equals(taskId)) || (!c.isEmpty() && !c.equals(contextId))) {
            throw violation("published " + what + " for " + t + "/" + c + " in the turn of " + taskId + "/" + contextId);
        }
    }

    /** PROTOCOL (A2A §3.1.2 TaskArtifactUpdateEvent.append): append extends the parts of the same artifact id. */
    private static Task withArtifact(Task task, TaskArtifactUpdateEvent u) {
        Artifact incoming = u.getArtifact();
        List<Artifact> artifacts = new ArrayList<>(task.getArtifactsList());
        int at = -1;
        for (int i = 0; i < artifacts.size(); i++) {
            if (artifacts.get(i).getArtifactId().equals(incoming.getArtifactId())) {
                at = i;
                break;
            }
        }
        if (at < 0) {
            artifacts.add(incoming);
        } else if (u.getAppend()) {
            artifacts.set(at, artifacts.get(at).toBuilder().addAllParts(incoming.getPartsList()).build());
        } else {
            artifacts.set(at, incoming);
        }
        return task.toBuilder().clearArtifacts().addAllArtifacts(artifacts).build();
    }

    /**
     * The executor returned or threw. A turn that left the task neither terminal nor interrupted
     * is failed here (or canceled, when a cancel was asked for), so no task is left WORKING forever.
     */
    synchronized void finish(Throwable failure) {
        if (finished) {
            return;
        }
        if (current == null && answer == null) {
            finished = true;
            String why = failure != null
                    ? "the agent failed before publishing anything: " + describe(failure)
                    : "the agent (" + executorName + ") ended its turn without publishing a Task or a Message";
            failEveryone(A2aError.INVALID_AGENT_RESPONSE.exception(why));
            countEnd();
            return;
        }
        if (current != null && !TaskStates.endsTurn(current.getStatus().getState())) {
            if (cancel.isRequested()) {
                status(TaskState.TASK_STATE_CANCELED, agentText("The task was canceled."));
            } else {
                String why = failure != null ? "The agent failed: " + describe(failure)
                        : "The agent stopped without finishing the task.";
                status(TaskState.TASK_STATE_FAILED, agentText(why));
            }
        } else if (current != null && cancel.isRequested() && TaskStates.isInterrupted(current.getStatus().getState())) {
            // PROTOCOL (A2A §3.1.5): a cancel asked while the turn was parking the task still ends it CANCELED.
            status(TaskState.TASK_STATE_CANCELED, agentText("The task was canceled."));
        }
        finished = true;
        if (reply != null && !replyClaimed) {
            // A question still out when the execution ends (it ended the task meanwhile): nobody waits any more.
            reply.complete(null);
        }
        turnEnded.complete(null);
        settled.complete(null);
        endSubscribers();
        countEnd();
    }

    /** How the turn ended, for metrics and traces: the task's state ("completed"), "message", "abandoned" or "none". */
    synchronized String endedAs() {
        if (abandoned) {
            return "abandoned";
        }
        if (answer != null) {
            return "message";
        }
        return current == null ? "none" : ServerMetrics.stateLabel(current.getStatus().getState());
    }

    private void countEnd() {
        metrics.moved(counted, null);
        counted = null;
        metrics.turnEnded(endedAs(), System.nanoTime() - startedNanos);
    }

    /**
     * Adds a subscriber to this turn's streams that first receives the current task snapshot, with
     * the sequence number of the latest event it reflects: a resumed stream whose Last-Event-ID is
     * past the log. It ends where this turn's streams end, as the stream it resumes would have.
     * Called under this run's lock while its streams are open ({@link #resumeAfter}).
     */
    private Subscription subscribeWithSnapshot() {
        Subscription s = subscribe();
        if (current != null) {
            s.offer(StreamResponse.newBuilder().setTask(current).build(), lastSeq);
        }
        return s;
    }

    /**
     * Adds a subscriber that resumes a cut stream (Last-Event-ID): the task's logged events after
     * {@code after}, then this turn's live ones. The log is read under this run's lock, which every
     * event of the turn is appended and delivered under, so between the replay and the live events
     * none is lost and none repeated. An id above the latest event (lost in a crash, or made up)
     * gets the snapshot instead. Null when this turn's streams are over: the store alone answers.
     */
    synchronized Subscription resumeAfter(long after) {
        if (streamsEnded) {
            return null;
        }
        if (after > lastSeq) {
            return subscribeWithSnapshot();
        }
        Replay replay = Replay.read(store, taskId, after);
        Subscription s = new Subscription(subscribers::remove);
        replay.into(s);
        if (replay.closes()) {
            s.end();
        } else {
            subscribers.add(s);
        }
        return s;
    }

    /**
     * The server is stopping: from now on the turn's events go nowhere and its waiters are let go.
     * The task stays as stored, SUBMITTED or WORKING, and the next start fails it as interrupted
     * (see {@link UnsettledTasks}), the same as after a crash. Taken under this run's lock, so no
     * append of this turn is in flight once it returns and the store can be closed.
     */
    synchronized void abandon() {
        if (finished) {
            return;
        }
        finished = true;
        abandoned = true;
        countEnd();
        if (reply != null) {
            reply.complete(null);
        }
        A2aException stopping = A2aError.INTERNAL.exception("the agent's server is stopping");
        firstEvent.completeExceptionally(stopping);
        turnEnded.completeExceptionally(stopping);
        settled.complete(null);
        endSubscribers();
    }

    /**
     * The store refused one of the turn's events (its commit failed: a full disk, a lost database):
     * the turn is over, and its streams and waiters are told so rather than left waiting for events
     * that will never be stored. The exception goes on to the executor; the task stays as stored,
     * and a restart fails it if it was running. No event after the refused one is sent to anyone.
     * DEFECT (issue 30, item 7): a stream's first frame waits for its task's commit; when that commit
     * failed, the turn's end could not be stored either and the stream hung with no answer at all.
     */
    private void unrecorded() {
        finished = true;
        countEnd();
        if (reply != null) {
            reply.complete(null);
        }
        failEveryone(unrecordedError());
    }

    /** The turn ends in {@code error} for everyone waiting on it: its streams, its caller, its settling. */
    private void failEveryone(A2aException error) {
        for (Subscription s : subscribers) {
            s.fail(error);
        }
        subscribers.clear();
        streamsEnded = true;
        firstEvent.completeExceptionally(error);
        turnEnded.completeExceptionally(error);
        settled.complete(null);
    }

    /**
     * Subscribes the stream that answers the turn's caller (SendStreamingMessage). The turn's first
     * event tells that caller the new task's id, so the stream's frames wait for the creation's
     * commit, as {@link #answersWithFirstEvent} requires; the executor does not wait for it.
     * Called before the executor runs.
     */
    synchronized Subscription subscribeStream() {
        streamed = true;
        return subscribe();
    }

    /** What the turn's streams and waiters are told when the store refused one of its events. */
    private static A2aException unrecordedError() {
        return A2aError.INTERNAL.exception("the task store could not record the task; see the agent's log");
    }

    synchronized Subscription subscribe() {
        Subscription s = new Subscription(subscribers::remove);
        if (abandoned) {
            // A stream opened as the server stops would otherwise wait for events that never come.
            s.fail(A2aError.INTERNAL.exception("the agent's server is stopping"));
            return s;
        }
        subscribers.add(s);
        return s;
    }

    private void endSubscribers() {
        streamsEnded = true;
        for (Subscription s : subscribers) {
            s.end();
        }
        subscribers.clear();
    }

    private IllegalStateException violation(String what) {
        return new IllegalStateException("executor " + executorName + " " + what);
    }

    private Timestamp now() {
        return timestamp(clock.instant());
    }

    /** A status timestamp. PROTOCOL (A2A §5.5): timestamps print as RFC 3339; milliseconds are what peers show. */
    static Timestamp timestamp(Instant i) {
        return Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos((i.getNano() / 1_000_000) * 1_000_000).build();
    }

    private static String kind(StreamResponse e) {
        return switch (e.getPayloadCase()) {
            case TASK -> "a Task";
            case MESSAGE -> "a Message";
            case STATUS_UPDATE -> "a status update (" + e.getStatusUpdate().getStatus().getState() + ")";
            case ARTIFACT_UPDATE -> "an artifact update";
            case PAYLOAD_NOT_SET -> "an empty event";
        };
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
    }
}
