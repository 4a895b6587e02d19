package legate.acp.permission;

import java.nio.file.Path;

/**
 * A path an agent named that does not resolve inside its session root: the answer to an
 * {@code fs/*} request or a file edit outside the sandbox. The message names the path as the agent
 * spelled it and the root, because it is shown to the agent and, for refusals, to the A2A caller.
 */
public final class PathOutsideRoot extends Exception {

    private final String path;
    private final transient Path root;

    /**
     * @param path the path as the agent spelled it
     * @param root the session root it was checked against
     * @param why why it could not be resolved, or null when it simply resolves outside
     */
    public PathOutsideRoot(String path, Path root, String why) {
        super(why == null
                ? "path " + path + " is outside the session root " + root
                : "path " + path + " is refused: " + why + " (session root " + root + ")");
        this.path = path;
        this.root = root;
    }

    /** The path as the agent spelled it. */
    public String path() {
        return path;
    }

    /** The session root it was checked against. */
    public Path root() {
        return root;
    }
}
