package legate.a2a.server.task;

import lf.a2a.v1.Task;

/**
 * A task as stored: the task after its latest event, that event's sequence number (0 before any
 * event, which a stored task never is), and the principal it belongs to ("" for the anonymous
 * caller; a row stored before owners were kept reads as anonymous).
 */
public record StoredTask(Task task, long lastSeq, String owner) {
    public StoredTask {
        if (owner == null) {
            owner = "";
        }
    }

    /** A task the anonymous caller owns. */
    public StoredTask(Task task, long lastSeq) {
        this(task, lastSeq, "");
    }
}
