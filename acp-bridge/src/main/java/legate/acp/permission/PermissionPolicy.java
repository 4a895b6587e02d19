package legate.acp.permission;

/**
 * The supervisor of an ACP session: it answers every {@code session/request_permission} the agent
 * sends, inside the bridge, so the A2A caller is never asked.
 *
 * <p>One method, so that an external supervisor can replace the built-in
 * {@link PermissionClassifier} without touching the bridge. Implementations must be thread-safe
 * (sessions run side by side), must not block for long (the agent waits), and must always return a
 * verdict, using {@link PermissionVerdict#allow} and {@link PermissionVerdict#refuse} to pick an
 * option the agent offered.
 */
@FunctionalInterface
public interface PermissionPolicy {

    /** Decides one request of the session whose working directory is {@code root}. */
    PermissionVerdict decide(PermissionRequest request, SessionRoot root);
}
