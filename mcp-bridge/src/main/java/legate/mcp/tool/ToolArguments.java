package legate.mcp.tool;

import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.util.Map;

/**
 * The arguments of one {@code tools/call}, read as the strings every A2A tool takes. A wrong type
 * is a {@link ToolFailure} naming the argument, so a calling model learns what to fix.
 */
record ToolArguments(Map<String, Object> values) {
    ToolArguments {
        values = values == null ? Map.of() : values;
    }

    static ToolArguments of(CallToolRequest request) {
        return new ToolArguments(request.arguments());
    }

    /** A string argument that must be present; an empty text is allowed (it asks the agent to prompt). */
    String required(String name) {
        Object v = values.get(name);
        if (v == null) {
            throw new ToolFailure("the argument " + name + " is required");
        }
        if (!(v instanceof String s)) {
            throw new ToolFailure("the argument " + name + " must be a string");
        }
        return s;
    }

    /** A non-blank string argument that must be present, such as a task id. */
    String requiredId(String name) {
        String s = required(name).strip();
        if (s.isEmpty()) {
            throw new ToolFailure("the argument " + name + " must not be blank");
        }
        return s;
    }

    /** A string argument that may be absent; null, absent and blank all mean absent. */
    String optional(String name) {
        Object v = values.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new ToolFailure("the argument " + name + " must be a string");
        }
        return s.isBlank() ? null : s.strip();
    }
}
