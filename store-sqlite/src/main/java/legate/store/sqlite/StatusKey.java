package legate.store.sqlite;

import com.google.protobuf.Timestamp;
import java.time.Instant;
import lf.a2a.v1.Task;

/**
 * A task's status time as two columns, seconds and nanoseconds since the epoch, normalized the way
 * {@link Instant} normalizes them: ordering rows by both orders them exactly as the in-memory store
 * orders instants, with no precision lost to a single millisecond or microsecond column.
 */
record StatusKey(long seconds, int nanos) {

    static StatusKey of(Task task) {
        Timestamp ts = task.getStatus().getTimestamp();
        return of(Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos()));
    }

    static StatusKey of(Instant instant) {
        return new StatusKey(instant.getEpochSecond(), instant.getNano());
    }
}
