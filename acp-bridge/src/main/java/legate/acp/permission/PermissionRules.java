package legate.acp.permission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A permission policy made of rules ({@link PolicyFile}): the built-in one, or the file named by
 * {@code ACP_POLICY}. The first rule that matches decides; the default decides when none does.
 *
 * <p>Two things hold whatever the rules say. A {@code switch_mode} is allowed only back into the
 * supervised mode (the bridge never reports a supervision it is not performing). And under
 * {@code ACP_PERMISSIONS=policy} an {@code ask} refuses, since nobody is asked.
 *
 * <p>Stateless and thread-safe; one instance serves every session.
 */
public final class PermissionRules implements PermissionPolicy {
    /** Where the built-in policy's text lives; the README shows the same file. */
    public static final String BUILT_IN_RESOURCE = "built-in-policy.yaml";
    private static final String BUILT_IN = "the built-in policy";

    private final String source;
    private final PolicyFile file;
    private final String supervisedModeId;
    private final boolean allowExecute;
    private final boolean asking;
    private final boolean builtIn;

    private PermissionRules(String source, PolicyFile file, String supervisedModeId, boolean allowExecute, boolean asking,
                            boolean builtIn) {
        this.source = source;
        this.file = file;
        this.supervisedModeId = supervisedModeId;
        this.allowExecute = allowExecute;
        this.asking = asking;
        this.builtIn = builtIn;
    }

    /**
     * The built-in policy (README, "Permissions"), read from its text. With {@code asking}, what it
     * would refuse is asked instead: its allows stand and its default becomes ask.
     *
     * @param supervisedModeId the mode the bridge selects after session/new, or null for an agent without modes
     * @param allowExecute ACP_ALLOW_EXECUTE: commands, fetches and other actions allowed in a configured directory too
     */
    public static PermissionRules builtIn(String supervisedModeId, boolean allowExecute, boolean asking) {
        try {
            PolicyFile f = PolicyFile.parse(builtInText(), BUILT_IN_RESOURCE, false);
            PolicyFile effective = asking ? new PolicyFile(f.rules(), PolicyAction.ASK) : f;
            return new PermissionRules(BUILT_IN, effective, supervisedModeId, allowExecute, asking, true);
        } catch (PolicyFileError e) {
            throw new IllegalStateException("the built-in policy does not parse: " + e.getMessage(), e);
        }
    }

    /** The built-in policy without asking: what the bridge decides under ACP_PERMISSIONS=policy. */
    public static PermissionRules builtIn(String supervisedModeId, boolean allowExecute) {
        return builtIn(supervisedModeId, allowExecute, false);
    }

    /**
     * The policy in {@code file} (YAML, or JSON for a {@code .json} name).
     *
     * @param asking ACP_PERMISSIONS=ask: an {@code ask} puts the request to the caller (else it refuses)
     * @throws PolicyFileError naming the file, line and field when it cannot be read or used
     */
    public static PermissionRules load(Path file, String supervisedModeId, boolean allowExecute, boolean asking)
            throws PolicyFileError {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new PolicyFileError(file.toString(), 0, null, "cannot be read (" + e.getMessage() + ")");
        }
        boolean json = file.getFileName() != null && file.getFileName().toString().endsWith(".json");
        return new PermissionRules("policy file " + file.getFileName(), PolicyFile.parse(text, file.toString(), json),
                supervisedModeId, allowExecute, asking, false);
    }

    /** The built-in policy as written: the text the README shows. */
    public static String builtInText() {
        try (InputStream in = PermissionRules.class.getResourceAsStream(BUILT_IN_RESOURCE)) {
            return new String(Objects.requireNonNull(in, BUILT_IN_RESOURCE).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when an {@code ask} puts the request to the A2A caller. */
    public boolean asking() {
        return asking;
    }

    @Override
    public PolicyDecision decide(PermissionRequest request, SessionRoot root) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(root, "root");
        String what = request.described();
        for (PolicyRule rule : file.rules()) {
            if (rule.matches(request, root, allowExecute)) {
                return decision(rule.action(), "rule " + rule.number() + " of " + source + " (" + rule.summary() + ")",
                        request, root, what);
            }
        }
        return decision(file.fallback(), "the default of " + source + " (" + file.fallback().value() + ")", request, root,
                what);
    }

    private PolicyDecision decision(PolicyAction action, String rule, PermissionRequest request, SessionRoot root,
                                    String what) {
        return switch (action) {
            case ALLOW -> new PolicyDecision(action, rule, allow(request, what, rule));
            case DENY -> new PolicyDecision(action, rule, PermissionVerdict.refuse(request.options(),
                    what + " was refused by " + rule + why(request, root)));
            case ASK -> asking
                    ? new PolicyDecision(action, rule, PermissionVerdict.refuse(request.options(),
                            what + " was put to the caller by " + rule + ", who did not answer"))
                    : new PolicyDecision(PolicyAction.DENY, rule, PermissionVerdict.refuse(request.options(), what
                            + " was refused: " + rule + " says ask, and with ACP_PERMISSIONS=policy nobody is asked"));
        };
    }

    private PermissionVerdict allow(PermissionRequest request, String what, String rule) {
        if (!request.toolKind().equals(PermissionKind.SWITCH_MODE)) {
            return PermissionVerdict.allow(request.options(), what + ": allowed by " + rule);
        }
        if (supervisedModeId == null) {
            return PermissionVerdict.refuse(request.options(), what
                    + " was refused: the agent runs without a supervised mode, so it may not switch modes");
        }
        String allowed = what + " back into the supervised mode '" + supervisedModeId + "': allowed by " + rule;
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

    /** What a person needs to know beside the rule: the path outside the root, or the setting that would allow it. */
    private String why(PermissionRequest request, SessionRoot root) {
        for (String p : request.paths()) {
            try {
                root.resolve(p);
            } catch (PathOutsideRoot e) {
                return "; " + e.getMessage();
            }
        }
        if (!builtIn || root.ours()) {
            return "";
        }
        PermissionKind kind = request.toolKind();
        if (List.of(PermissionKind.EDIT, PermissionKind.DELETE, PermissionKind.MOVE).contains(kind)) {
            return "; it names no file, so it cannot be confined to the working directory " + root.path()
                    + ", which was given by configuration";
        }
        if (List.of(PermissionKind.READ, PermissionKind.SEARCH, PermissionKind.THINK, PermissionKind.SWITCH_MODE)
                .contains(kind)) {
            return "";
        }
        return "; commands, fetches and other actions run only in a sandbox the bridge created, and " + root.path()
                + " was given by configuration (ACP_CWD); set ACP_ALLOW_EXECUTE=true to allow them there";
    }
}
