package legate.tap.show;

/**
 * A breach of A2A that the tap can see on the wire, flagged on the console and the web page
 * ({@link ProtocolCheck}). Each names the rule it checks; the tap flags, it never corrects.
 */
public enum Problem {
    /** PROTOCOL (A2A §3.1.2): a task stream opens with the Task; a message stream is one Message. */
    FIRST_EVENT_NOT_TASK_OR_MESSAGE("the stream's first event is neither a Task nor a Message"),
    /** PROTOCOL (A2A §3.2.6, §3.6.1): a client sends A2A-Version on every request; a server reads its absence as 0.3. */
    MISSING_A2A_VERSION("the request has no A2A-Version (an A2A server reads 0.3)"),
    /** PROTOCOL (A2A §3.1.3): a terminal task never changes again, so nothing follows its terminal state. */
    EVENT_AFTER_TERMINAL_STATE("an event after the task reached a terminal state"),
    /** PROTOCOL (JSON-RPC 2.0 §5): a response carries the id of the request it answers. */
    ID_MISMATCH("the response's JSON-RPC id is not the request's"),
    /** PROTOCOL (A2A §9.5): an A2A error carries a google.rpc.ErrorInfo in {@code error.data}, an array of typed details. */
    ERROR_WITHOUT_ERROR_INFO("an error without the ErrorInfo shape");

    private final String summary;

    Problem(String summary) {
        this.summary = summary;
    }

    /** One line a person reads: what is wrong. */
    public String summary() {
        return summary;
    }
}
