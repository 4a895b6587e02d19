package legate.a2a.server.task;

import lf.a2a.v1.Task;

/**
 * A task as stored: the task after its latest event, and that event's sequence number (0 before
 * any event, which a stored task never is).
 */
public record StoredTask(Task task, long lastSeq) {
}
