package legate.acp.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/** One entry of {@code authMethods} in the initialize answer: how the agent can be logged in. */
public record AuthMethod(String id, String name, String description) {

    static AuthMethod fromJson(JsonNode n) {
        return new AuthMethod(n.path("id").asText(""), n.path("name").asText(""),
                n.hasNonNull("description") ? n.get("description").asText() : null);
    }
}
