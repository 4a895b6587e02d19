package legate.a2a.server;

/**
 * What an agent does inside one turn of a task; everything around the turn (ids, storage, the
 * lifecycle rules, streams, cancellation deadlines) belongs to the server.
 *
 * <p>Contract, enforced by the server rather than trusted:
 * <ul>
 *   <li>{@link #execute} runs on its own virtual thread and may block for as long as the work takes;
 *       it describes the turn by publishing events to the sink.
 *   <li>The first event is a Task (normally {@link RequestContext#initialTask()}) or a single
 *       Message; nothing follows a Message or a terminal state.
 *   <li>{@link #cancel} is called from a request thread while {@code execute} may be running; it
 *       asks the turn to stop and returns at once. The turn then publishes TASK_STATE_CANCELED. A
 *       cancel may also name a task that is parked (waiting for input) with no turn running.
 * </ul>
 * An exception from {@code execute} fails the task with the exception's message; it never reaches
 * the caller as a stack trace.
 */
public interface AgentExecutor {

    void execute(RequestContext context, EventSink events) throws Exception;

    void cancel(String taskId);
}
