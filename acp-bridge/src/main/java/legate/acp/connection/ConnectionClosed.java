package legate.acp.connection;

import java.util.List;

/**
 * The agent's process ended or its stdout closed: every request still waiting fails with this, at
 * once, instead of waiting for a timeout.
 *
 * @see AcpConnection
 */
public final class ConnectionClosed extends Exception {
    private final transient Integer exitStatus;
    private final transient List<String> stderrTail;

    ConnectionClosed(String program, Integer exitStatus, List<String> stderrTail) {
        super(exitStatus != null ? "the agent (" + program + ") exited with status " + exitStatus
                : "the agent (" + program + ") closed its output", null, false, false);
        this.exitStatus = exitStatus;
        this.stderrTail = List.copyOf(stderrTail);
    }

    /** Null when the process was still running (it closed stdout without exiting). */
    public Integer exitStatus() {
        return exitStatus;
    }

    /** The agent's last lines on stderr, oldest first: often the only explanation there is. */
    public List<String> stderrTail() {
        return stderrTail;
    }
}
