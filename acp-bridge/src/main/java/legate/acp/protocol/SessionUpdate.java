package legate.acp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code session/update} from the agent, by its {@code sessionUpdate} kind. The kinds the bridge
 * translates are members; every other kind, named in the spec or invented by a newer agent, is
 * {@link Unknown} with its raw JSON, never an error: kinds grow with new adapter versions (docs/peers.md §6).
 */
public sealed interface SessionUpdate {

    /** The {@code sessionUpdate} discriminator. */
    String kind();

    /** A piece of the agent's answer; {@code text} is empty for non-text content. */
    record AgentMessageChunk(String text) implements SessionUpdate {
        public String kind() {
            return "agent_message_chunk";
        }
    }

    /** A piece of the agent's reasoning. */
    record AgentThoughtChunk(String text) implements SessionUpdate {
        public String kind() {
            return "agent_thought_chunk";
        }
    }

    /** The agent echoing the user's prompt (seen when a session is replayed). */
    record UserMessageChunk(String text) implements SessionUpdate {
        public String kind() {
            return "user_message_chunk";
        }
    }

    /** A tool call the agent started. {@code paths} are its locations. */
    record ToolCall(String toolCallId, String title, String toolKind, String status, List<String> paths, JsonNode raw)
            implements SessionUpdate {
        public ToolCall {
            paths = List.copyOf(paths);
        }

        public String kind() {
            return "tool_call";
        }
    }

    /** A change to a tool call; every field but the id may be null (only changed fields are sent). */
    record ToolCallUpdate(String toolCallId, String title, String status, JsonNode raw) implements SessionUpdate {
        public String kind() {
            return "tool_call_update";
        }
    }

    /** The agent's whole current plan (each update replaces the previous one). */
    record Plan(List<PlanEntry> entries, JsonNode raw) implements SessionUpdate {
        public Plan {
            entries = List.copyOf(entries);
        }

        public String kind() {
            return "plan";
        }
    }

    /** One line of a plan. */
    record PlanEntry(String content, String priority, String status) {
    }

    /** The session's mode changed (by the agent or a permission it was given). */
    record CurrentModeUpdate(String currentModeId, JsonNode raw) implements SessionUpdate {
        public String kind() {
            return "current_mode_update";
        }
    }

    /** Context-window use and cost, as claude-agent-acp reports it: {@code used}, {@code size}, {@code cost}. */
    record UsageUpdate(JsonNode raw) implements SessionUpdate {
        public String kind() {
            return "usage_update";
        }
    }

    /** Any other kind, kept as it came. */
    record Unknown(String kind, JsonNode raw) implements SessionUpdate {
    }

    /** Reads the {@code update} member of a session/update notification. */
    static SessionUpdate fromJson(JsonNode update) {
        if (update == null || !update.isObject()) {
            return new Unknown("", update);
        }
        String kind = update.path("sessionUpdate").asText("");
        return switch (kind) {
            case "agent_message_chunk" -> new AgentMessageChunk(textOf(update.get("content")));
            case "agent_thought_chunk" -> new AgentThoughtChunk(textOf(update.get("content")));
            case "user_message_chunk" -> new UserMessageChunk(textOf(update.get("content")));
            case "tool_call" -> new ToolCall(update.path("toolCallId").asText(""), text(update, "title"),
                    text(update, "kind"), text(update, "status"), paths(update), update);
            case "tool_call_update" -> new ToolCallUpdate(update.path("toolCallId").asText(""), text(update, "title"),
                    text(update, "status"), update);
            case "plan" -> new Plan(entries(update), update);
            case "current_mode_update" -> new CurrentModeUpdate(text(update, "currentModeId"), update);
            case "usage_update" -> new UsageUpdate(update);
            default -> new Unknown(kind, update);
        };
    }

    private static String textOf(JsonNode content) {
        // PROTOCOL (ACP ContentBlock): only a "text" block has text; images, audio and resources do not.
        if (content != null && "text".equals(content.path("type").asText()) && content.get("text") != null) {
            return content.get("text").asText();
        }
        return "";
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    private static List<String> paths(JsonNode update) {
        List<String> out = new ArrayList<>();
        for (JsonNode l : update.path("locations")) {
            if (l.hasNonNull("path")) {
                out.add(l.get("path").asText());
            }
        }
        return out;
    }

    private static List<PlanEntry> entries(JsonNode update) {
        List<PlanEntry> out = new ArrayList<>();
        for (JsonNode e : update.path("entries")) {
            out.add(new PlanEntry(e.path("content").asText(""), e.path("priority").asText(""), e.path("status").asText("")));
        }
        return out;
    }
}
