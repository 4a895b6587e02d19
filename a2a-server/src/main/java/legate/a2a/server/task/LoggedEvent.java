package legate.a2a.server.task;

import lf.a2a.v1.StreamResponse;

/**
 * One event of a task's log as it is read back: what a resumed stream replays, with the sequence
 * number that is the SSE {@code id:} of the frame that carried it the first time.
 */
public record LoggedEvent(long seq, StreamResponse event) {
}
