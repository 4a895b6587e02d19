package legate.mcp.tool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schema of a tool's arguments as MCP's {@code inputSchema} carries it: an object of
 * string properties, each with the description a calling model reads to choose its value.
 */
final class ToolSchema {
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    static ToolSchema object() {
        return new ToolSchema();
    }

    ToolSchema string(String name, String description, boolean isRequired) {
        properties.put(name, Map.of("type", "string", "description", description));
        if (isRequired) {
            required.add(name);
        }
        return this;
    }

    Map<String, Object> build() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", new LinkedHashMap<>(properties));
        schema.put("required", List.copyOf(required));
        return schema;
    }
}
