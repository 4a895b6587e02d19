package legate.acp.bridge;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of one log record, in the order they are written: the ids a reader looks up first
 * (contextId, taskId, sessionId), then what happened. Null values are kept, as JSON null.
 */
final class LogFields {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    static LogFields of(String key, Object value) {
        return new LogFields().and(key, value);
    }

    LogFields and(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    LogFields andAll(Map<String, ?> more) {
        fields.putAll(more);
        return this;
    }

    Map<String, Object> map() {
        return fields;
    }
}
