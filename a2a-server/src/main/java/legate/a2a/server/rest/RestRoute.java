package legate.a2a.server.rest;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import legate.a2a.model.A2aError;

/**
 * Where a REST request is addressed: the resource its path names and the ids in it. PROTOCOL
 * (A2A §11.3): paths are relative to the interface URL, and each may open with a tenant segment
 * ({@code /{tenant}/tasks/{id}}); a task's custom methods are {@code :cancel} and
 * {@code :subscribe} after its id (AIP-136).
 *
 * @param tenant the path's tenant segment, or "" when the path has none
 * @param taskId the task id of the path, or "" where the resource has none
 * @param configId the push configuration id of the path, or ""
 */
record RestRoute(RestResource resource, String tenant, String taskId, String configId) {

    /**
     * The route of a path (already relative to the interface URL, opening with "/"), or null when
     * it names no resource of this binding (404).
     *
     * @throws legate.a2a.model.A2aException INVALID_PARAMS for an id that is empty or not properly
     *     percent-encoded
     */
    static RestRoute parse(String rawPath) {
        String[] segments = rawPath.startsWith("/") ? rawPath.substring(1).split("/", -1) : new String[] {""};
        RestRoute bare = match(segments, 0, "");
        if (bare != null || segments.length < 2) {
            return bare;
        }
        return match(segments, 1, decode(segments[0], "tenant"));
    }

    private static RestRoute match(String[] s, int from, String tenant) {
        int n = s.length - from;
        String first = s[from];
        if (n == 1) {
            RestResource r = switch (first) {
                case "message:send" -> RestResource.MESSAGE_SEND;
                case "message:stream" -> RestResource.MESSAGE_STREAM;
                case "tasks" -> RestResource.TASKS;
                case "extendedAgentCard" -> RestResource.EXTENDED_AGENT_CARD;
                default -> null;
            };
            return r == null ? null : new RestRoute(r, tenant, "", "");
        }
        if (!first.equals("tasks")) {
            return null;
        }
        String task = s[from + 1];
        if (n == 2) {
            // The id itself cannot hold a raw ':' here: a client percent-encodes it (%3A) as AIP-136 asks.
            int colon = task.lastIndexOf(':');
            if (colon < 0) {
                return new RestRoute(RestResource.TASK, tenant, decode(task, "task id"), "");
            }
            RestResource r = switch (task.substring(colon + 1)) {
                case "cancel" -> RestResource.TASK_CANCEL;
                case "subscribe" -> RestResource.TASK_SUBSCRIBE;
                default -> null;
            };
            return r == null ? null : new RestRoute(r, tenant, decode(task.substring(0, colon), "task id"), "");
        }
        if (!s[from + 2].equals("pushNotificationConfigs") || n > 4) {
            return null;
        }
        String taskId = decode(task, "task id");
        return n == 3 ? new RestRoute(RestResource.PUSH_CONFIGS, tenant, taskId, "")
                : new RestRoute(RestResource.PUSH_CONFIG, tenant, taskId, decode(s[from + 3], "configuration id"));
    }

    /** A path segment's text; '+' is a plus in a path (RFC 3986), not a space as in a form. */
    private static String decode(String segment, String what) {
        if (segment.isEmpty()) {
            throw A2aError.INVALID_PARAMS.exception("the " + what + " in the path is empty");
        }
        try {
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw A2aError.INVALID_PARAMS.exception("the " + what + " in the path is not percent-encoded properly: "
                    + segment);
        }
    }
}
