package legate.acp.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import legate.acp.permission.PermissionOption;
import legate.acp.permission.PermissionRequest;
import legate.acp.permission.PermissionVerdict;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;

/**
 * A permission request put to the A2A caller (ACP_PERMISSIONS=ask): the INPUT_REQUIRED message that
 * says what the agent wants, with a data part holding the request and the options exactly as the
 * agent offered them, and the reading of the caller's answer.
 *
 * <p>Accepted answers: a data part {@code {"optionId": "..."}}; a text naming an option's id or its
 * name; {@code yes} or {@code no}, which mean the offered allow_once and reject_once (else the
 * other allow, or the narrowest refusal).
 */
final class Question {
    private final PermissionRequest request;
    private final JsonNode toolCall;
    private final String agent;

    /** @param toolCall the request's toolCall as the agent sent it, or null */
    Question(PermissionRequest request, JsonNode toolCall, String agent) {
        this.request = request;
        this.toolCall = toolCall;
        this.agent = agent;
    }

    /** The question's text: what the agent wants, and how to answer. */
    String text() {
        StringBuilder sb = new StringBuilder(agent).append(" asks permission: ")
                .append(request.title() == null ? "a tool call" : request.title())
                .append(" (").append(request.kind()).append(')');
        if (!request.paths().isEmpty()) {
            sb.append(" on ").append(String.join(", ", request.paths()));
        }
        if (request.command() != null) {
            sb.append("\nCommand: ").append(request.command());
        }
        return sb.append('\n').append(accepted()).toString();
    }

    /** How to answer, listing the offered options. */
    String accepted() {
        StringBuilder sb = new StringBuilder("Reply into this task with one option's id or name, or yes / no:");
        for (PermissionOption o : request.options()) {
            sb.append("\n- ").append(o.optionId()).append(": ").append(o.name()).append(" (").append(o.kind()).append(')');
        }
        return sb.toString();
    }

    /**
     * The data part of the question: {@code {"permission": {toolCall, paths, command?, options}}}, the
     * tool call and the options as the agent sent them, the paths and the command as the bridge read them.
     */
    Part data() {
        ObjectNode permission = JsonNodeFactory.instance.objectNode();
        permission.set("toolCall", toolCall == null ? JsonNodeFactory.instance.objectNode() : toolCall);
        ArrayNode paths = permission.putArray("paths");
        request.paths().forEach(paths::add);
        if (request.command() != null) {
            permission.put("command", request.command());
        }
        ArrayNode options = permission.putArray("options");
        for (PermissionOption o : request.options()) {
            options.addObject().put("optionId", o.optionId()).put("name", o.name()).put("kind", o.kind());
        }
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.set("permission", permission);
        return Part.newBuilder().setData(AcpMetadata.value(data)).setMediaType("application/json").build();
    }

    /** The offered option the caller's message names, or null when it names none. */
    PermissionOption choice(Message reply) {
        for (Part p : reply.getPartsList()) {
            if (p.getContentCase() == Part.ContentCase.DATA && p.getData().hasStructValue()) {
                var id = p.getData().getStructValue().getFieldsMap().get("optionId");
                if (id != null && id.hasStringValue()) {
                    return byId(id.getStringValue());
                }
            }
        }
        StringBuilder text = new StringBuilder();
        for (Part p : reply.getPartsList()) {
            if (p.getContentCase() == Part.ContentCase.TEXT) {
                text.append(p.getText());
            }
        }
        String said = text.toString().strip();
        PermissionOption named = byId(said);
        if (named != null) {
            return named;
        }
        for (PermissionOption o : request.options()) {
            if (o.name() != null && o.name().equalsIgnoreCase(said)) {
                return o;
            }
        }
        return switch (said.toLowerCase(Locale.ROOT)) {
            case "yes" -> byVerdict(PermissionVerdict.allow(request.options(), ""));
            case "no" -> byVerdict(PermissionVerdict.refuse(request.options(), ""));
            default -> null;
        };
    }

    private PermissionOption byVerdict(PermissionVerdict v) {
        return v.optionId() == null ? null : byId(v.optionId());
    }

    private PermissionOption byId(String id) {
        for (PermissionOption o : request.options()) {
            if (o.optionId().equals(id)) {
                return o;
            }
        }
        return null;
    }

    /** True when {@code status} carries a question's data part ({@code {"permission": ...}}). */
    static boolean isQuestion(Message status) {
        return status.getPartsList().stream().anyMatch(p -> p.getContentCase() == Part.ContentCase.DATA
                && p.getData().hasStructValue() && p.getData().getStructValue().containsFields("permission"));
    }

    /** True when the option lets the tool call run. */
    static boolean allows(PermissionOption o) {
        return List.of(PermissionOption.ALLOW_ONCE, PermissionOption.ALLOW_ALWAYS).contains(o.kind());
    }
}
