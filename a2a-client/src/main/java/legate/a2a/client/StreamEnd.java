package legate.a2a.client;

import lf.a2a.v1.TaskState;

/**
 * How an A2A stream ended when it ended without an error. A broken connection is a
 * {@link TransportException} and an error from the agent an {@link AgentErrorException}; this
 * record covers the rest, including the agent closing the stream before the turn was over.
 *
 * @param how what ended it
 * @param events how many events the listener received
 * @param lastState the last task state seen (from a Task or a status update), UNSPECIFIED if none
 */
public record StreamEnd(How how, int events, TaskState lastState) {

    /** What ended a stream. */
    public enum How {
        /** The task reached a terminal state or asked for input: the turn is over. */
        TURN_ENDED,
        /** The agent answered with a single Message, which ends a stream (A2A §3.1.2). */
        MESSAGE,
        /** The listener asked to stop. */
        STOPPED,
        /** The agent closed the stream cleanly before any of the above. */
        CLOSED_EARLY
    }

    public boolean closedEarly() {
        return how == How.CLOSED_EARLY;
    }
}
