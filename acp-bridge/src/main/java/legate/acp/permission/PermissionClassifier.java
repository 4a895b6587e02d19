package legate.acp.permission;

import java.util.Map;
import java.util.Objects;

/**
 * The built-in supervisor: decides a permission request from the tool kind, the paths it names
 * and the session root, following the permission table in the README.
 *
 * <ul>
 *   <li>{@code read}, {@code search}, {@code think}: allowed.
 *   <li>{@code edit}, {@code delete}, {@code move}: allowed when every path resolves inside the root
 *       ({@link SessionRoot#resolve}); a call that names no path only when the root is ours.
 *   <li>{@code switch_mode}: allowed only back into the supervised mode.
 *   <li>{@code execute}, {@code fetch}, {@code other} and every kind the spec does not list: allowed
 *       only when the root is ours, or when {@code allowExecute} ({@code ACP_ALLOW_EXECUTE=true}).
 * </ul>
 *
 * <p>Stateless and thread-safe; one instance can serve every session.
 */
public final class PermissionClassifier implements PermissionPolicy {

    private static final int TITLE_SHOWN = 80;

    /** How a kind is judged; a kind missing from TREATMENTS (execute, fetch, other, unknown) ACTS. */
    private enum Treatment { READS, CHANGES_FILES, SWITCHES_MODE, ACTS }

    private static final Map<PermissionKind, Treatment> TREATMENTS = Map.of(
            PermissionKind.READ, Treatment.READS,
            PermissionKind.SEARCH, Treatment.READS,
            PermissionKind.THINK, Treatment.READS,
            PermissionKind.EDIT, Treatment.CHANGES_FILES,
            PermissionKind.DELETE, Treatment.CHANGES_FILES,
            PermissionKind.MOVE, Treatment.CHANGES_FILES,
            PermissionKind.SWITCH_MODE, Treatment.SWITCHES_MODE);

    private final String supervisedModeId;
    private final boolean allowExecute;

    /**
     * @param supervisedModeId the mode the bridge selects after {@code session/new} (claude: {@code default},
     *     codex: {@code read-only}), or null when the agent has no modes and no switch is allowed
     * @param allowExecute true to allow side effects in a directory given by configuration
     */
    public PermissionClassifier(String supervisedModeId, boolean allowExecute) {
        this.supervisedModeId = supervisedModeId;
        this.allowExecute = allowExecute;
    }

    @Override
    public PermissionVerdict decide(PermissionRequest request, SessionRoot root) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(root, "root");
        PermissionKind kind = request.toolKind();
        String what = describe(request, kind);
        return switch (treatment(kind)) {
            case READS -> PermissionVerdict.allow(request.options(), what + " only reads: allowed");
            case CHANGES_FILES -> changeFiles(request, root, what);
            case SWITCHES_MODE -> switchMode(request, what);
            case ACTS -> act(request, root, what);
        };
    }

    private static Treatment treatment(PermissionKind kind) {
        // execute, fetch, other, and any kind the spec does not list: an unknown kind is handled as "other".
        return TREATMENTS.getOrDefault(kind, Treatment.ACTS);
    }

    private static PermissionVerdict changeFiles(PermissionRequest request, SessionRoot root, String what) {
        if (request.paths().isEmpty()) {
            if (root.ours()) {
                return PermissionVerdict.allow(request.options(), what
                        + " names no file: allowed, because the session works in a sandbox the bridge created ("
                        + root.path() + ")");
            }
            return PermissionVerdict.refuse(request.options(), what + " was refused: it names no file, so it cannot be"
                    + " confined to the working directory " + root.path() + ", which was given by configuration");
        }
        for (String path : request.paths()) {
            try {
                root.resolve(path);
            } catch (PathOutsideRoot e) {
                return PermissionVerdict.refuse(request.options(), what + " was refused: " + e.getMessage());
            }
        }
        return PermissionVerdict.allow(request.options(), what + " stays inside the session root " + root.path()
                + ": allowed");
    }

    private PermissionVerdict switchMode(PermissionRequest request, String what) {
        if (supervisedModeId == null) {
            return PermissionVerdict.refuse(request.options(), what
                    + " was refused: the agent runs without a supervised mode, so it may not switch modes");
        }
        String allowed = what + " back into the supervised mode '" + supervisedModeId + "': allowed";
        // PEER (claude-agent-acp): ExitPlanMode offers one option per mode it can switch into, the id being
        // the mode (bypassPermissions, acceptEdits: allow_always; default: allow_once; plan: reject_once).
        for (PermissionOption option : request.options()) {
            boolean allows = PermissionOption.ALLOW_ONCE.equals(option.kind())
                    || PermissionOption.ALLOW_ALWAYS.equals(option.kind());
            if (allows && supervisedModeId.equals(option.optionId())) {
                return new PermissionVerdict(true, option.optionId(), allowed);
            }
        }
        if (supervisedModeId.equals(request.requestedModeId())) {
            return PermissionVerdict.allow(request.options(), allowed);
        }
        String target = request.requestedModeId() == null ? "" : ", not into '" + request.requestedModeId() + "'";
        return PermissionVerdict.refuse(request.options(), what + " was refused: the agent may only switch back into"
                + " the supervised mode '" + supervisedModeId + "'" + target);
    }

    private PermissionVerdict act(PermissionRequest request, SessionRoot root, String what) {
        if (root.ours()) {
            return PermissionVerdict.allow(request.options(), what + " runs in a sandbox the bridge created ("
                    + root.path() + "): allowed");
        }
        if (allowExecute) {
            return PermissionVerdict.allow(request.options(), what + " in the configured directory " + root.path()
                    + ": allowed by ACP_ALLOW_EXECUTE=true");
        }
        return PermissionVerdict.refuse(request.options(), what + " was refused: commands, fetches and other"
                + " actions run only in a sandbox the bridge created, and " + root.path() + " was given by configuration"
                + " (ACP_CWD); set ACP_ALLOW_EXECUTE=true to allow them there");
    }

    private static String describe(PermissionRequest request, PermissionKind kind) {
        String name = kind.known() ? kind.value() : kind.value() + " (an unknown tool kind, treated as other)";
        String title = request.title();
        if (title == null) {
            return "The " + name + " tool call";
        }
        String shown = title.length() <= TITLE_SHOWN ? title : title.substring(0, TITLE_SHOWN) + "...";
        return "The " + name + " tool call \"" + shown.replaceAll("\\s+", " ") + "\"";
    }
}
