package legate.acp.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import legate.wire.json.WireJson;

/**
 * What the bridge keeps of one conversation (an A2A contextId) beside its tasks: the backend that
 * runs it, the ACP session that remembers it and the directory it works in. Kept in the task store
 * so that a later agent process, after an idle reap or a restart, can ask the agent to load the
 * same session in the same directory ({@code session/load}).
 *
 * @param backend the backend's id ({@code claude}, {@code codex}, {@code acp})
 * @param sessionId the ACP session id the agent gave at session/new
 * @param root the conversation's working directory, as a real absolute path
 */
public record ConversationRecord(String backend, String sessionId, String root) {

    /** The record as one JSON object: what the store keeps. */
    public String toJson() {
        ObjectNode o = WireJson.mapper().createObjectNode();
        o.put("backend", backend);
        o.put("sessionId", sessionId);
        o.put("root", root);
        return WireJson.write(o);
    }

    /** Reads a record written by {@link #toJson}; a field it lacks reads as null. */
    public static ConversationRecord fromJson(String json) throws IOException {
        JsonNode o = WireJson.mapper().readTree(json);
        return new ConversationRecord(text(o, "backend"), text(o, "sessionId"), text(o, "root"));
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
