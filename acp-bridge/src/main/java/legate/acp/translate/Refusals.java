package legate.acp.translate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What the bridge refused the agent during one turn (permission verdicts, fs requests outside the
 * root). Every refusal reaches the A2A caller, in the final status message and in the artifact's
 * data part.
 */
final class Refusals {
    private final List<String> reasons = new ArrayList<>();
    private final ArrayNode data = JsonNodeFactory.instance.arrayNode();

    void add(String toolCallId, String title, String kind, String reason) {
        reasons.add(reason);
        ObjectNode r = data.addObject();
        r.put("toolCallId", toolCallId);
        r.put("title", title);
        r.put("kind", kind);
        r.put("reason", reason);
    }

    int size() {
        return reasons.size();
    }

    ArrayNode data() {
        return data.deepCopy();
    }

    /** The note followed by every refusal; null when there is nothing to say. */
    String after(String note) {
        if (reasons.isEmpty()) {
            return note;
        }
        StringBuilder sb = new StringBuilder(note == null ? "" : note + "\n");
        sb.append("Legate refused ").append(reasons.size()).append(reasons.size() == 1 ? " request" : " requests")
                .append(" of the agent:");
        for (String r : reasons) {
            sb.append("\n- ").append(r);
        }
        return sb.toString();
    }
}
