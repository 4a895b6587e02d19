package legate.acp.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/** The params of a {@code session/update} notification: which session, and what happened in it. */
public record SessionNotification(String sessionId, SessionUpdate update) {

    public static SessionNotification fromJson(JsonNode params) {
        String sessionId = params == null ? "" : params.path("sessionId").asText("");
        return new SessionNotification(sessionId, SessionUpdate.fromJson(params == null ? null : params.get("update")));
    }
}
