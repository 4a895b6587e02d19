package legate.acp.permission;

/**
 * The supervisor of an ACP session: it answers every {@code session/request_permission} the agent
 * sends with allow, deny, or ask (put the request to the A2A caller).
 *
 * <p>One method, so that another supervisor can replace {@link PermissionRules} without touching
 * the bridge. Implementations must be thread-safe (sessions run side by side), must not block for
 * long (the agent waits), and must always return a decision whose verdict names an option the agent
 * offered ({@link PermissionVerdict#allow}, {@link PermissionVerdict#refuse}).
 */
@FunctionalInterface
public interface PermissionPolicy {

    /** Decides one request of the session whose working directory is {@code root}. */
    PolicyDecision decide(PermissionRequest request, SessionRoot root);
}
