package legate.acp.log;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of one log record, in the order they are written: the ids a reader looks up first
 * (contextId, taskId, sessionId), then what happened. Null values are kept, as JSON null.
 */
public final class LogFields {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    public static LogFields of(String key, Object value) {
        return new LogFields().and(key, value);
    }

    public LogFields and(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    public LogFields andAll(Map<String, ?> more) {
        fields.putAll(more);
        return this;
    }

    public Map<String, Object> map() {
        return fields;
    }
}
