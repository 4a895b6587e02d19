package legate.acp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's answer to {@code session/new}.
 *
 * @param currentModeId null when the agent has no modes
 * @param availableModes empty when the agent has no modes
 */
public record NewSessionResponse(String sessionId, String currentModeId, List<SessionMode> availableModes) {

    public NewSessionResponse {
        if (sessionId == null || sessionId.isEmpty()) {
            throw new IllegalArgumentException("session/new answered without a sessionId");
        }
        availableModes = List.copyOf(availableModes);
    }

    public static NewSessionResponse fromJson(JsonNode result) {
        JsonNode id = result == null ? null : result.get("sessionId");
        if (id == null || !id.isTextual()) {
            throw new IllegalArgumentException("session/new answered without a sessionId: " + result);
        }
        JsonNode modes = result.path("modes");
        List<SessionMode> available = new ArrayList<>();
        for (JsonNode m : modes.path("availableModes")) {
            available.add(new SessionMode(m.path("id").asText(""), m.path("name").asText("")));
        }
        String current = modes.hasNonNull("currentModeId") ? modes.get("currentModeId").asText() : null;
        return new NewSessionResponse(id.asText(), current, available);
    }
}
