package legate.a2a.server;

/**
 * What an agent does inside one turn of a task; everything around the turn (ids, storage, the
 * lifecycle rules, streams, cancellation and its deadline) belongs to the server.
 *
 * <p>Contract, enforced by the server rather than trusted:
 * <ul>
 *   <li>{@link #execute} runs on its own virtual thread and may block for as long as the work takes;
 *       it describes the turn by publishing events to the sink.
 *   <li>The first event is a Task (normally {@link RequestContext#initialTask()}) or a single
 *       Message; nothing follows a Message or a terminal state.
 *   <li>A cancel reaches a running turn through {@link RequestContext#cancel()}, which exists before
 *       the turn starts; the turn then publishes TASK_STATE_CANCELED (or returns, and the server
 *       publishes it).
 * </ul>
 * An exception from {@code execute} fails the task with the exception's message; it never reaches
 * the caller as a stack trace.
 */
public interface AgentExecutor {

    void execute(RequestContext context, EventSink events) throws Exception;

    /**
     * Optional hook: the server has canceled a task that had no turn running (parked in
     * INPUT_REQUIRED or AUTH_REQUIRED) and has already published CANCELED for it. An executor that
     * keeps something for a parked task lets go of it here; a running turn is never told through
     * this method, only through its {@link CancelSignal}. Called from a request thread; must return
     * promptly.
     */
    default void cancel(String taskId) {
    }
}
