package legate.acp.protocol;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The {@code session/prompt} request: the caller's text as one text content block. */
public record PromptRequest(String sessionId, String text) {

    public ObjectNode toJson() {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("sessionId", sessionId);
        ArrayNode prompt = params.putArray("prompt");
        ObjectNode block = prompt.addObject();
        block.put("type", "text");
        block.put("text", text);
        return params;
    }
}
