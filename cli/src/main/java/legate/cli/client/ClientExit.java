package legate.cli.client;

/** The exit codes of {@code legate client}, as its help lists them for scripts. */
public enum ClientExit {
    /** The task completed, asks for input, or the agent answered the request. */
    OK(0),
    /** The task failed, was canceled or rejected, needs credentials, or its stream ended early (cut, and not resumed). */
    TASK_UNFINISHED(1),
    /** The command line or a setting is wrong (picocli uses 2 for usage errors too). */
    USAGE(2),
    /** The agent answered with an error (an A2A or JSON-RPC error code). */
    AGENT_ERROR(3),
    /** No A2A agent could be reached: nothing listens, a timeout, no card, or not A2A. */
    UNREACHABLE(4);

    private final int code;

    ClientExit(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
