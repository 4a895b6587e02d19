package legate.acp.translate;

import legate.acp.protocol.SessionUpdate;
import legate.acp.protocol.StopReason;

/** The readable text of the status messages a turn publishes: what a person watching the task reads. */
final class TurnText {
    private TurnText() {
    }

    static String toolCall(SessionUpdate.ToolCall t) {
        StringBuilder sb = new StringBuilder("Tool call: ").append(t.title() != null ? t.title() : t.toolCallId());
        String kind = t.toolKind() != null ? t.toolKind() : "other";
        sb.append(" (").append(kind).append(", ").append(t.status() != null ? t.status() : "pending").append(')');
        if (!t.paths().isEmpty()) {
            sb.append(" on ").append(String.join(", ", t.paths()));
        }
        return sb.toString();
    }

    static String toolCallUpdate(SessionUpdate.ToolCallUpdate t) {
        String name = t.title() != null ? t.title() : t.toolCallId();
        return "Tool call " + name + (t.status() != null ? ": " + t.status() : "");
    }

    static String plan(SessionUpdate.Plan p) {
        StringBuilder sb = new StringBuilder("Plan:");
        for (SessionUpdate.PlanEntry e : p.entries()) {
            String mark = switch (e.status()) {
                case "completed" -> "[x]";
                case "in_progress" -> "[~]";
                default -> "[ ]";
            };
            sb.append('\n').append(mark).append(' ').append(e.content());
        }
        return sb.toString();
    }

    /** What a COMPLETED status says when the agent stopped before it was done; null for end_turn. */
    static String earlyStop(StopReason stop) {
        if (stop.equals(StopReason.END_TURN)) {
            return null;
        }
        if (stop.equals(StopReason.MAX_TOKENS)) {
            return "The agent stopped early: it reached its token limit (stopReason max_tokens). The answer may be incomplete.";
        }
        if (stop.equals(StopReason.MAX_TURN_REQUESTS)) {
            return "The agent stopped early: it reached its limit of model requests for one turn"
                    + " (stopReason max_turn_requests). The answer may be incomplete.";
        }
        return "The agent ended its turn with stopReason '" + stop.value() + "', which this bridge does not know.";
    }
}
