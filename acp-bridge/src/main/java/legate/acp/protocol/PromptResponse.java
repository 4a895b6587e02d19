package legate.acp.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The answer that ends a prompt turn.
 *
 * @param usage the token counts when the agent reports them (claude-agent-acp does), else null
 */
public record PromptResponse(StopReason stopReason, JsonNode usage) {

    public static PromptResponse fromJson(JsonNode result) {
        JsonNode reason = result == null ? null : result.get("stopReason");
        if (reason == null || !reason.isTextual() || reason.asText().isEmpty()) {
            // PROTOCOL (ACP): stopReason is required in a prompt answer.
            throw new IllegalArgumentException("session/prompt answered without a stopReason: " + result);
        }
        JsonNode usage = result.get("usage");
        return new PromptResponse(new StopReason(reason.asText()), usage != null && usage.isObject() ? usage : null);
    }
}
