package legate.acp.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import legate.acp.protocol.SessionUpdate;

/**
 * The tool calls of one turn, as the answer artifact records them: one record per call (id,
 * title, kind, final status, paths), the failures counted, and the edits the agent made (content
 * of type {@code diff}) kept per file for the {@code changes} artifact.
 *
 * <p>PEER (codex-acp): a failed command or patch ends the turn with {@code end_turn} all the same,
 * so the count of failed tool calls is how a caller learns that something went wrong.
 */
final class ToolCallRecords {
    private final Map<String, ObjectNode> calls = new LinkedHashMap<>();
    /** Per path, the text before the first edit and after the latest, so one diff per file. */
    private final Map<String, Edit> edits = new LinkedHashMap<>();

    /** One file's text before the turn's first edit of it (null: a new file) and after its latest. */
    private record Edit(String before, String after) {
    }

    void started(SessionUpdate.ToolCall t) {
        ObjectNode r = calls.computeIfAbsent(t.toolCallId(), id -> JsonNodeFactory.instance.objectNode().put("id", id));
        r.put("title", t.title());
        r.put("kind", t.toolKind() == null ? "other" : t.toolKind());
        r.put("status", t.status() == null ? "pending" : t.status());
        ArrayNode paths = r.putArray("paths");
        t.paths().forEach(paths::add);
        diffs(t.raw());
    }

    void updated(SessionUpdate.ToolCallUpdate t) {
        ObjectNode r = calls.computeIfAbsent(t.toolCallId(), id -> JsonNodeFactory.instance.objectNode().put("id", id)
                .put("kind", "other").put("status", "pending"));
        if (t.title() != null) {
            r.put("title", t.title());
        }
        if (t.status() != null) {
            r.put("status", t.status());
        }
        JsonNode locations = t.raw().path("locations");
        if (locations.isArray()) {
            ArrayNode paths = r.putArray("paths");
            locations.forEach(l -> paths.add(l.path("path").asText()));
        }
        diffs(t.raw());
    }

    private void diffs(JsonNode raw) {
        // PROTOCOL (ACP ToolCallContent): {"type":"diff","path","oldText"?,"newText"}; oldText absent for a new file.
        for (JsonNode c : raw.path("content")) {
            if ("diff".equals(c.path("type").asText()) && c.path("path").isTextual() && c.path("newText").isTextual()) {
                String path = c.get("path").asText();
                String old = c.path("oldText").isTextual() ? c.get("oldText").asText() : null;
                Edit earlier = edits.get(path);
                edits.put(path, new Edit(earlier == null ? old : earlier.before(), c.get("newText").asText()));
            }
        }
    }

    int size() {
        return calls.size();
    }

    int failed() {
        return (int) calls.values().stream().filter(r -> "failed".equals(r.path("status").asText())).count();
    }

    ArrayNode data() {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        calls.values().forEach(r -> a.add(r.deepCopy()));
        return a;
    }

    /** One unified diff per edited file, in the order the files were first edited; empty diffs left out. */
    List<FileChange> changes() {
        return edits.entrySet().stream()
                .map(e -> new FileChange(e.getKey(), UnifiedDiff.of(e.getKey(), e.getValue().before(), e.getValue().after())))
                .filter(c -> !c.diff().isEmpty()).toList();
    }

    /** One file's edit: the path as the agent named it and its unified diff. */
    record FileChange(String path, String diff) {
    }
}
