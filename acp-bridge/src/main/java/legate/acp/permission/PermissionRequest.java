package legate.acp.permission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an agent asks in {@code session/request_permission}: the tool call it wants to make and the
 * options it offers for the answer.
 *
 * @param sessionId the ACP session, or null when absent
 * @param toolCallId the tool call, or null when absent
 * @param title the tool call's title for people, or null
 * @param kind the tool kind as sent ({@code "other"} when absent); see {@link #toolKind()}
 * @param paths every file path the call names: {@code toolCall.locations[].path} first, then the
 *     paths found in {@code rawInput} (see {@link #fromParams}); no duplicates
 * @param options the options offered, in the agent's order; those without an id are left out
 * @param requestedModeId for {@code switch_mode}, the mode named in {@code rawInput}, else null
 * @param command the command line of an {@code execute} ({@code rawInput.command}, a list joined with
 *     spaces), else null
 */
public record PermissionRequest(String sessionId, String toolCallId, String title, String kind, List<String> paths,
        List<PermissionOption> options, String requestedModeId, String command) {

    // Names under which agents put a file path in rawInput. Extra paths only make the check stricter.
    // PEER (claude-agent-acp): Write/Edit/NotebookEdit carry file_path / notebook_path.
    // PEER (codex-acp): a patch carries changes {path: {..., move_path}} and may ask for grant_root; its
    // locations list the destination of a move but not the source.
    private static final Set<String> PATH_KEYS = Set.of("file_path", "filePath", "notebook_path", "path",
            "source", "destination", "old_path", "new_path", "move_path", "grant_root");
    private static final int TITLE_SHOWN = 80;
    private static final List<String> MODE_KEYS = List.of("modeId", "mode_id", "mode");

    /** Copies the lists, so the record stays immutable. */
    public PermissionRequest {
        kind = kind == null || kind.isBlank() ? PermissionKind.OTHER.value() : kind;
        paths = paths == null ? List.of() : List.copyOf(paths);
        options = options == null ? List.of() : List.copyOf(options);
    }

    /** A request that carries no command line. */
    public PermissionRequest(String sessionId, String toolCallId, String title, String kind, List<String> paths,
                             List<PermissionOption> options, String requestedModeId) {
        this(sessionId, toolCallId, title, kind, paths, options, requestedModeId, null);
    }

    /** The call as a person reads it in a reason: {@code The edit tool call "Write a.txt"}. */
    public String described() {
        PermissionKind k = toolKind();
        String name = k.known() ? k.value() : k.value() + " (an unknown tool kind, treated as other)";
        if (title == null) {
            return "The " + name + " tool call";
        }
        String shown = title.length() <= TITLE_SHOWN ? title : title.substring(0, TITLE_SHOWN) + "...";
        return "The " + name + " tool call \"" + shown.replaceAll("\\s+", " ") + "\"";
    }

    /** The kind as a value of the open vocabulary; unknown kinds say so through {@link PermissionKind#known()}. */
    public PermissionKind toolKind() {
        return PermissionKind.of(kind);
    }

    /**
     * Reads the params of {@code session/request_permission} leniently: a missing or mistyped field is
     * absent, never an exception, so one odd agent cannot break the bridge. Paths are taken from
     * {@code toolCall.locations[].path} and from {@code toolCall.rawInput}: top-level strings under
     * well-known keys ({@code file_path}, {@code path}, {@code move_path}, ...) and the keys and
     * {@code move_path}s of a {@code changes} object.
     */
    public static PermissionRequest fromParams(JsonNode params) {
        JsonNode p = params == null ? MissingNode.getInstance() : params;
        JsonNode call = p.path("toolCall");
        Set<String> paths = new LinkedHashSet<>();
        for (JsonNode location : call.path("locations")) {
            addText(paths, location.path("path"));
        }
        JsonNode raw = call.path("rawInput");
        if (raw.isObject()) {
            for (Map.Entry<String, JsonNode> field : raw.properties()) {
                if (PATH_KEYS.contains(field.getKey())) {
                    addText(paths, field.getValue());
                }
            }
            JsonNode changes = raw.path("changes");
            if (changes.isObject()) {
                for (Map.Entry<String, JsonNode> change : changes.properties()) {
                    paths.add(change.getKey());
                    change.getValue().findValues("move_path").forEach(v -> addText(paths, v));
                }
            }
        }
        List<PermissionOption> options = new ArrayList<>();
        for (JsonNode option : p.path("options")) {
            String id = text(option.path("optionId"));
            if (id != null) {
                options.add(new PermissionOption(id, text(option.path("name")), text(option.path("kind"))));
            }
        }
        String kind = text(call.path("kind"));
        String mode = null;
        if (PermissionKind.of(kind).equals(PermissionKind.SWITCH_MODE)) {
            for (String key : MODE_KEYS) {
                mode = mode != null ? mode : text(raw.path(key));
            }
        }
        return new PermissionRequest(text(p.path("sessionId")), text(call.path("toolCallId")),
                text(call.path("title")), kind, new ArrayList<>(paths), options, mode, command(raw));
    }

    /**
     * PEER (claude-agent-acp): Bash carries {@code command} as a string. PEER (codex-acp): an exec
     * carries it as a list of words.
     */
    private static String command(JsonNode raw) {
        JsonNode c = raw.path("command");
        if (c.isTextual()) {
            return c.asText();
        }
        if (c.isArray() && !c.isEmpty()) {
            List<String> words = new ArrayList<>();
            c.forEach(w -> words.add(w.asText()));
            return String.join(" ", words);
        }
        return null;
    }

    private static void addText(Set<String> into, JsonNode node) {
        String value = text(node);
        if (value != null) {
            into.add(value);
        }
    }

    private static String text(JsonNode node) {
        return node.isTextual() && !node.asText().isBlank() ? node.asText() : null;
    }
}
