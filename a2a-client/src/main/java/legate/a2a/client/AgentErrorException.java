package legate.a2a.client;

import java.util.Optional;
import legate.a2a.model.A2aError;

/**
 * The agent answered with a JSON-RPC error: an A2A error (-32001..-32099, such as TaskNotFound) or a
 * JSON-RPC 2.0 one (-32700..-32603). It carries the code, the agent's message and, when the agent
 * sent one, the ErrorInfo reason.
 *
 * <p>A code this build does not know is kept as it came and shown in the message; {@link #error()}
 * is then empty. Classify by {@link #reason()} or {@link #code()}, never by the HTTP status: the
 * same error arrives with 200, 400 or 500 depending on the peer.
 */
public final class AgentErrorException extends A2aClientException {
    private final int code;
    private final String agentMessage;
    private final ErrorInfo errorInfo;

    /** @param errorInfo null when the error carried no ErrorInfo (JS sends none for -32601 and -32603) */
    public AgentErrorException(int code, String agentMessage, ErrorInfo errorInfo) {
        super(describe(code, agentMessage, errorInfo), null);
        this.code = code;
        this.agentMessage = agentMessage == null ? "" : agentMessage;
        this.errorInfo = errorInfo;
    }

    /** The JSON-RPC error code, as sent. */
    public int code() {
        return code;
    }

    /** The error's message as the agent wrote it. */
    public String agentMessage() {
        return agentMessage;
    }

    public Optional<ErrorInfo> errorInfo() {
        return Optional.ofNullable(errorInfo);
    }

    /** The ErrorInfo reason ({@code TASK_NOT_FOUND}), or null when the agent sent none. */
    public String reason() {
        return errorInfo == null || errorInfo.reason().isEmpty() ? null : errorInfo.reason();
    }

    /** The error this code stands for, or empty for a code outside the A2A and JSON-RPC tables. */
    public Optional<A2aError> error() {
        return Optional.ofNullable(A2aError.byCode(code));
    }

    private static String describe(int code, String message, ErrorInfo info) {
        String name;
        if (info != null && !info.reason().isEmpty()) {
            name = info.reason();
        } else {
            A2aError known = A2aError.byCode(code);
            name = known != null ? known.name() : "unknown error";
        }
        String text = message == null || message.isBlank() ? "(no message)" : message.strip();
        return name + " (" + code + "): " + text.replace('\n', ' ');
    }
}
