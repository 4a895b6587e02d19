package legate.acp.permission;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule of a permission policy: an action and the matchers that must all match for it to
 * decide. A matcher left out matches everything.
 *
 * @param number the rule's place in the file, from 1
 * @param action what the rule decides
 * @param kinds the tool kinds it applies to (an unknown kind counts as {@code other}); null for any
 * @param paths globs every path of the request must match; empty: only a request that names no path; null for any
 * @param commands globs on the command line of an execute; null for any
 * @param tools globs on the tool call's title; null for any
 * @param root {@code sandbox} (a directory the bridge created) or {@code configured} (ACP_CWD); null for either
 * @param when a setting that must be on ({@code ACP_ALLOW_EXECUTE}); null for none
 */
record PolicyRule(int number, PolicyAction action, List<PermissionKind> kinds, List<Glob> paths, List<Glob> commands,
                  List<Glob> tools, String root, String when) {

    static final String ROOT_SANDBOX = "sandbox";
    static final String ROOT_CONFIGURED = "configured";
    static final String WHEN_ALLOW_EXECUTE = "ACP_ALLOW_EXECUTE";

    boolean matches(PermissionRequest request, SessionRoot sessionRoot, boolean allowExecute) {
        if (when != null && !allowExecute) {
            return false;
        }
        if (root != null && root.equals(ROOT_SANDBOX) != sessionRoot.ours()) {
            return false;
        }
        if (kinds != null) {
            PermissionKind kind = request.toolKind().known() ? request.toolKind() : PermissionKind.OTHER;
            if (!kinds.contains(kind)) {
                return false;
            }
        }
        if (commands != null && (request.command() == null || !any(commands, request.command()))) {
            return false;
        }
        if (tools != null && (request.title() == null || !any(tools, request.title()))) {
            return false;
        }
        return paths == null || pathsMatch(request.paths(), sessionRoot);
    }

    /**
     * Every path, resolved as the sandbox check resolves it (links and {@code ..} included), must
     * match a glob: an absolute glob the absolute path, a relative one the path relative to the root
     * (so a path outside the root never matches a relative glob).
     */
    private boolean pathsMatch(List<String> requested, SessionRoot sessionRoot) {
        if (paths.isEmpty() || requested.isEmpty()) {
            return paths.isEmpty() && requested.isEmpty();
        }
        for (String p : requested) {
            Path target;
            try {
                target = sessionRoot.target(p);
            } catch (PathOutsideRoot e) {
                return false;
            }
            String relative = target.startsWith(sessionRoot.path())
                    ? sessionRoot.path().relativize(target).toString().replace('\\', '/') : null;
            boolean matched = false;
            for (Glob g : paths) {
                String against = g.absolute() ? target.toString() : relative;
                matched |= against != null && g.matches(against);
            }
            if (!matched) {
                return false;
            }
        }
        return true;
    }

    private static boolean any(List<Glob> globs, String value) {
        for (Glob g : globs) {
            if (g.matches(value)) {
                return true;
            }
        }
        return false;
    }

    /** The rule as a person reads it in a log or a reason: {@code allow edit, move with paths **}. */
    String summary() {
        List<String> parts = new ArrayList<>();
        if (kinds != null) {
            parts.add(String.join(", ", kinds.stream().map(PermissionKind::value).toList()));
        }
        if (paths != null) {
            parts.add(paths.isEmpty() ? "naming no path" : "paths " + paths);
        }
        if (commands != null) {
            parts.add("command " + commands);
        }
        if (tools != null) {
            parts.add("tool " + tools);
        }
        if (root != null) {
            parts.add("in a " + (root.equals(ROOT_SANDBOX) ? "sandbox" : "configured directory"));
        }
        if (when != null) {
            parts.add("when " + when + "=true");
        }
        return action.value() + (parts.isEmpty() ? " everything" : " " + String.join("; ", parts));
    }
}
