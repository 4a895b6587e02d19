package legate.a2a.server.task;

import com.google.protobuf.InvalidProtocolBufferException;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;

/**
 * A task as stored: the task after its latest event, that event's sequence number (0 before any
 * event, which a stored task never is), and the principal it belongs to ("" for the anonymous
 * caller; a row stored before owners were kept reads as anonymous).
 *
 * <p>A task whose stored bytes no longer decode (written by an older Legate, or damaged) is read
 * as a stand-in: {@link #unreadable()} says why, and {@link #task()} holds only what the store
 * keeps beside the bytes (id, contextId, state). It is set aside, never fatal: a start fails it
 * like any interrupted run, a listing skips it, and a read of it answers an error that says so.
 *
 * @param unreadable why the stored task does not decode, or null when it does
 */
public record StoredTask(Task task, long lastSeq, String owner, String unreadable) {
    public StoredTask {
        if (owner == null) {
            owner = "";
        }
    }

    /** A task that decoded. */
    public StoredTask(Task task, long lastSeq, String owner) {
        this(task, lastSeq, owner, null);
    }

    /** A task the anonymous caller owns. */
    public StoredTask(Task task, long lastSeq) {
        this(task, lastSeq, "", null);
    }

    /**
     * Decodes a stored task; bytes that do not decode give the stand-in, built from the columns a
     * store keeps beside them, instead of an exception that would stop a start or a whole listing.
     */
    public static StoredTask decode(byte[] encoded, String id, String contextId, TaskState state, long lastSeq,
                                    String owner) {
        try {
            return new StoredTask(Task.parseFrom(encoded), lastSeq, owner, null);
        } catch (InvalidProtocolBufferException e) {
            Task standIn = Task.newBuilder().setId(id).setContextId(contextId)
                    .setStatus(TaskStatus.newBuilder().setState(state)).build();
            return new StoredTask(standIn, lastSeq, owner, "its stored record no longer decodes ("
                    + firstLine(e.getMessage()) + ")");
        }
    }

    /** Decodes a stored task where only the task itself is wanted (a listing): the stand-in knows its id alone. */
    public static StoredTask decode(byte[] encoded, String id) {
        return decode(encoded, id, "", TaskState.TASK_STATE_UNSPECIFIED, 0, "");
    }

    /** Whether the stored task decoded; false for a stand-in. */
    public boolean readable() {
        return unreadable == null;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "malformed protobuf";
        }
        int end = s.indexOf('\n');
        return end < 0 ? s : s.substring(0, end);
    }
}
