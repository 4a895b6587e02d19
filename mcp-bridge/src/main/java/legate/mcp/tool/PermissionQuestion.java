package legate.mcp.tool;

import com.google.protobuf.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;

/**
 * A permission question of {@code legate bridge} in ask mode, read from an INPUT_REQUIRED status
 * message: its data part {@code {"permission": {"toolCall": ..., "options": [{optionId, name, kind}]}}}
 * (README, "Asking the caller"). A calling agent answers it for its user with a2a_ask, the task's id
 * and one optionId, so its options are lifted into the tool result and the note says how.
 *
 * @param options the options as the agent behind the bridge offered them: optionId, name, kind
 */
record PermissionQuestion(List<Map<String, String>> options) {

    /** The question in {@code status}, or null when it holds none. */
    static PermissionQuestion in(Message status) {
        if (status == null) {
            return null;
        }
        for (Part p : status.getPartsList()) {
            if (p.getContentCase() != Part.ContentCase.DATA || !p.getData().hasStructValue()) {
                continue;
            }
            Value permission = p.getData().getStructValue().getFieldsMap().get("permission");
            if (permission == null || !permission.hasStructValue()) {
                continue;
            }
            Value offered = permission.getStructValue().getFieldsMap().get("options");
            if (offered == null || !offered.hasListValue()) {
                continue;
            }
            List<Map<String, String>> options = new ArrayList<>();
            for (Value o : offered.getListValue().getValuesList()) {
                Map<String, String> option = new LinkedHashMap<>();
                for (String key : List.of("optionId", "name", "kind")) {
                    Value v = o.getStructValue().getFieldsMap().get(key);
                    option.put(key, v == null ? "" : v.getStringValue());
                }
                options.add(option);
            }
            return new PermissionQuestion(List.copyOf(options));
        }
        return null;
    }

    /** How to answer, for the result's note. */
    String howToAnswer(String taskId) {
        StringBuilder sb = new StringBuilder("The agent asks permission (see the status message). To answer, call a2a_ask"
                + " with taskId " + taskId + " and text set to one optionId:");
        for (Map<String, String> o : options) {
            sb.append(' ').append(o.get("optionId")).append(" (").append(o.get("name")).append(", ").append(o.get("kind"))
                    .append(");");
        }
        return sb.append(" or yes / no. Ask your user when the choice is theirs to make.").toString();
    }
}
