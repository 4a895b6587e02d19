package legate.a2a.server.v03;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;

/**
 * The members of a v0.3 request read with the checks its schema makes: a member of the wrong JSON
 * type, or a required one missing, is -32602 naming its path ({@code params.message.parts[1].kind}),
 * never a stack trace.
 */
final class V03Input {
    private V03Input() {
    }

    static A2aException invalid(String path, String what) {
        return A2aError.INVALID_PARAMS.exception(path + " " + what);
    }

    static ObjectNode object(JsonNode json, String path) {
        if (json == null || !json.isObject()) {
            throw invalid(path, json == null || json.isNull() ? "is required" : "must be a JSON object");
        }
        return (ObjectNode) json;
    }

    static ObjectNode optionalObject(JsonNode parent, String name, String path) {
        JsonNode json = parent.get(name);
        return json == null || json.isNull() ? null : object(json, path + "." + name);
    }

    static String string(JsonNode parent, String name, String path) {
        String s = optionalString(parent, name, path);
        if (s == null || s.isEmpty()) {
            throw invalid(path + "." + name, "is required");
        }
        return s;
    }

    static String optionalString(JsonNode parent, String name, String path) {
        JsonNode json = parent.get(name);
        if (json == null || json.isNull()) {
            return null;
        }
        if (!json.isTextual()) {
            throw invalid(path + "." + name, "must be a string");
        }
        return json.textValue();
    }

    static List<String> strings(JsonNode parent, String name, String path) {
        JsonNode json = parent.get(name);
        List<String> out = new ArrayList<>();
        if (json == null || json.isNull()) {
            return out;
        }
        if (!json.isArray()) {
            throw invalid(path + "." + name, "must be an array of strings");
        }
        for (JsonNode e : json) {
            if (!e.isTextual()) {
                throw invalid(path + "." + name, "must be an array of strings");
            }
            out.add(e.textValue());
        }
        return out;
    }

    static JsonNode array(JsonNode parent, String name, String path) {
        JsonNode json = parent.get(name);
        if (json == null || !json.isArray()) {
            throw invalid(path + "." + name, json == null || json.isNull() ? "is required" : "must be an array");
        }
        return json;
    }

    static Integer optionalInt(JsonNode parent, String name, String path) {
        JsonNode json = parent.get(name);
        if (json == null || json.isNull()) {
            return null;
        }
        if (!json.isIntegralNumber() || !json.canConvertToInt()) {
            throw invalid(path + "." + name, "must be an integer");
        }
        return json.intValue();
    }

    static Boolean optionalBoolean(JsonNode parent, String name, String path) {
        JsonNode json = parent.get(name);
        if (json == null || json.isNull()) {
            return null;
        }
        if (!json.isBoolean()) {
            throw invalid(path + "." + name, "must be true or false");
        }
        return json.booleanValue();
    }

    /** A {@code kind} discriminator, when present, must name the shape expected here. */
    static void kindIs(JsonNode json, String kind, String path) {
        String k = optionalString(json, "kind", path);
        if (k != null && !k.equals(kind)) {
            throw invalid(path + ".kind", "must be \"" + kind + "\", got \"" + k + "\"");
        }
    }
}
