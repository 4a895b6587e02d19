package legate.a2a.server.v03;

import static legate.a2a.server.v03.V03Input.array;
import static legate.a2a.server.v03.V03Input.invalid;
import static legate.a2a.server.v03.V03Input.kindIs;
import static legate.a2a.server.v03.V03Input.object;
import static legate.a2a.server.v03.V03Input.optionalObject;
import static legate.a2a.server.v03.V03Input.optionalString;
import static legate.a2a.server.v03.V03Input.string;
import static legate.a2a.server.v03.V03Input.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;

/**
 * A v0.3 Message ({@code kind: "message"}, role {@code "user"} or {@code "agent"}) and the v1.0
 * Message (role {@code ROLE_USER} / {@code ROLE_AGENT}, no kind). The fields are the same
 * otherwise: messageId, contextId, taskId, parts, metadata, extensions, referenceTaskIds.
 */
final class V03Messages {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private V03Messages() {
    }

    static Message toV1(JsonNode json, String path) {
        ObjectNode m = object(json, path);
        // PROTOCOL (A2A v0.3 §6.4): kind is "message"; a Task or an event sent as a message is refused.
        kindIs(m, "message", path);
        Message.Builder out = Message.newBuilder()
                .setMessageId(string(m, "messageId", path))
                .setRole(role(string(m, "role", path), path + ".role"));
        String contextId = optionalString(m, "contextId", path);
        String taskId = optionalString(m, "taskId", path);
        if (contextId != null) {
            out.setContextId(contextId);
        }
        if (taskId != null) {
            out.setTaskId(taskId);
        }
        JsonNode parts = array(m, "parts", path);
        for (int i = 0; i < parts.size(); i++) {
            out.addParts(V03Parts.toV1(parts.get(i), path + ".parts[" + i + "]"));
        }
        ObjectNode metadata = optionalObject(m, "metadata", path);
        if (metadata != null) {
            out.setMetadata(StructJson.struct(metadata));
        }
        out.addAllExtensions(strings(m, "extensions", path));
        out.addAllReferenceTaskIds(strings(m, "referenceTaskIds", path));
        return out.build();
    }

    private static Role role(String role, String path) {
        return switch (role) {
            case "user" -> Role.ROLE_USER;
            case "agent" -> Role.ROLE_AGENT;
            default -> throw invalid(path, "must be \"user\" or \"agent\", got \"" + role + "\"");
        };
    }

    static ObjectNode toV03(Message m) {
        ObjectNode out = JSON.objectNode();
        out.put("kind", "message");
        out.put("messageId", m.getMessageId());
        // v0.3 has two roles; a v1.0 ROLE_UNSPECIFIED can only have come from the agent side.
        out.put("role", m.getRole() == Role.ROLE_USER ? "user" : "agent");
        out.set("parts", parts(m.getPartsList()));
        if (!m.getContextId().isEmpty()) {
            out.put("contextId", m.getContextId());
        }
        if (!m.getTaskId().isEmpty()) {
            out.put("taskId", m.getTaskId());
        }
        if (m.hasMetadata()) {
            out.set("metadata", StructJson.json(m.getMetadata()));
        }
        putStrings(out, "extensions", m.getExtensionsList());
        putStrings(out, "referenceTaskIds", m.getReferenceTaskIdsList());
        return out;
    }

    static ArrayNode parts(List<Part> parts) {
        ArrayNode out = JSON.arrayNode();
        parts.forEach(p -> out.add(V03Parts.toV03(p)));
        return out;
    }

    static void putStrings(ObjectNode out, String name, List<String> values) {
        if (!values.isEmpty()) {
            ArrayNode array = out.putArray(name);
            values.forEach(array::add);
        }
    }
}
