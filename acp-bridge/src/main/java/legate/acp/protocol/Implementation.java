package legate.acp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * ACP's {@code Implementation}: who is at the other end of the pipe (agentInfo) or who the bridge is
 * (clientInfo). {@code title} is for people and may be null; {@code name} is the fallback.
 */
public record Implementation(String name, String title, String version) {
    public Implementation {
        name = name == null ? "" : name;
        version = version == null ? "" : version;
    }

    /** Null when the agent sent no agentInfo (it is optional in protocol version 1). */
    public static Implementation fromJson(JsonNode node) {
        if (node == null || !node.isObject()) {
            return null;
        }
        JsonNode title = node.get("title");
        return new Implementation(node.path("name").asText(""),
                title != null && title.isTextual() && !title.asText().isBlank() ? title.asText() : null,
                node.path("version").asText(""));
    }

    /** The title when there is one, else the name. */
    public String displayName() {
        return title != null ? title : name;
    }

    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", name);
        if (title != null) {
            n.put("title", title);
        }
        n.put("version", version);
        return n;
    }
}
