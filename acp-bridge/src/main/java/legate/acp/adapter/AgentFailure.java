package legate.acp.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import legate.acp.connection.AcpException;
import legate.acp.connection.ConnectionClosed;
import legate.acp.protocol.AcpErrorCode;

/**
 * Why an agent could not do its part, in the plain words an A2A caller reads in a FAILED status
 * message: what failed, and how to fix it when the fix is known.
 *
 * @param step the ACP step that failed ({@code session/new}, {@code session/prompt}, …), for logs
 * @param message the sentence for the caller
 * @param restartsAgent true when the agent process is gone and the next task gets a fresh one
 */
public record AgentFailure(String step, String message, boolean restartsAgent) {

    /** Reads a failure of {@code step} as a caller should hear it. */
    public static AgentFailure of(Backend backend, String step, Throwable cause) {
        String who = backend.displayName() + " (" + backend.command().program() + ")";
        if (cause instanceof AcpException e && e.code() == AcpErrorCode.AUTH_REQUIRED) {
            // PEER (claude-agent-acp, codex-acp): without credentials, session/prompt (claude) or session/new
            // (codex) answers -32000 "Authentication required"; the caller must learn it is a login problem.
            return new AgentFailure(step, backend.displayName() + " is not logged in: the agent answered \""
                    + e.error().message() + "\" to " + step + ". " + backend.loginHint(), false);
        }
        if (cause instanceof AcpException e) {
            return new AgentFailure(step, who + " answered " + step + " with an error: " + e.error().message()
                    + details(e.error().data()) + " (JSON-RPC " + e.code() + ").", false);
        }
        if (cause instanceof ConnectionClosed e) {
            String exit = e.exitStatus() == null ? "closed its output" : "exited with status " + e.exitStatus();
            return new AgentFailure(step, who + " " + exit + " during " + step + lastLine(e.stderrTail())
                    + ". The next task in this conversation starts a fresh agent.", true);
        }
        if (cause instanceof java.util.concurrent.TimeoutException) {
            return new AgentFailure(step, who + " did not answer " + step + " in time; it was stopped.", true);
        }
        if (cause instanceof java.io.IOException e) {
            return new AgentFailure(step, "Cannot start " + who + ": " + e.getMessage(), true);
        }
        String m = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new AgentFailure(step, who + " failed during " + step + ": " + m, false);
    }

    private static String details(JsonNode data) {
        // PEER (claude-agent-acp): -32603 carries the reason in data.details ("Invalid Mode").
        if (data != null && data.hasNonNull("details")) {
            return " (" + data.get("details").asText() + ")";
        }
        return "";
    }

    private static String lastLine(List<String> stderr) {
        for (int i = stderr.size() - 1; i >= 0; i--) {
            String line = stderr.get(i).replaceAll("\u001B\\[[0-9;]*m", "").strip();
            if (!line.isEmpty()) {
                return "; its last words on stderr: \"" + (line.length() > 300 ? line.substring(0, 300) + "…" : line) + "\"";
            }
        }
        return "";
    }
}
