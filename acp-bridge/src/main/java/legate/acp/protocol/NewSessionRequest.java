package legate.acp.protocol;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;

/** The {@code session/new} request: the session's working directory and no MCP servers. */
public record NewSessionRequest(Path cwd) {

    public NewSessionRequest {
        // PEER (claude-agent-acp): cwd must be absolute, existing and a directory, or session/new fails.
        if (cwd == null || !cwd.isAbsolute()) {
            throw new IllegalArgumentException("session/new needs an absolute cwd, got " + cwd);
        }
    }

    public ObjectNode toJson() {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("cwd", cwd.toString());
        // PEER (claude-agent-acp, codex-acp): mcpServers must be present, an empty array included.
        params.putArray("mcpServers");
        return params;
    }
}
