package legate.a2a.server;

/**
 * The caller's answer to a question an executor asked without ending its execution
 * ({@link EventSink#awaitReply}): the reply opened the task's next turn, and the execution goes on
 * in it.
 *
 * @param context the reply's turn: the caller's message, the task as stored before it, and the cancel
 *     signal (the same one the execution has followed since it started)
 * @param events where the execution publishes from now on; the Task comes first, as in every turn
 */
public record Reply(RequestContext context, EventSink events) {
}
