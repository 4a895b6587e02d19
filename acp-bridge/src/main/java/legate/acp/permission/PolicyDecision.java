package legate.acp.permission;

/**
 * A policy's answer to one {@code session/request_permission}: the action, the rule that decided
 * it, and the verdict that expresses it with an option the agent offered. For {@link PolicyAction#ASK}
 * the verdict is the refusal that stands when the caller does not answer.
 *
 * @param action what the policy said
 * @param rule the rule that decided, for the log: {@code "rule 3 of policy.yaml"}, {@code "the default of the built-in policy"}
 * @param verdict the answer for the agent (for ASK: what is answered when nobody does)
 */
public record PolicyDecision(PolicyAction action, String rule, PermissionVerdict verdict) {
}
