package legate.acp.permission;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;

/**
 * The decision on a {@code session/request_permission} and the option that expresses it.
 *
 * <p>{@code allowed} says whether the tool call will go ahead: it is false when the policy allowed
 * the call but the agent offered no option that allows it (the answer is then "cancelled"), so a
 * caller can report every false verdict as a refusal. The reason is written for people: refusals
 * reach the A2A caller.
 *
 * @param allowed true when the answer lets the tool call run
 * @param optionId one of the ids the agent offered, or null when none fits (answered "cancelled")
 * @param reason why, in plain words
 */
public record PermissionVerdict(boolean allowed, String optionId, String reason) {

    // PEER (codex-acp 0.16.0): a command approval offers "denied" ("No, continue without running it")
    // beside "abort" ("No, and tell Codex what to do differently"), both reject_once; "abort" ends the
    // whole turn, and so does "cancel", offered for MCP tool approvals beside the narrow "decline"
    // (docs/peers.md §6). A refusal that ends the turn is the last resort; a patch offers only
    // "approved" and "abort", so a refused edit does end codex's turn.
    private static final Set<String> TURN_ENDING_REFUSALS = Set.of("cancel", "abort");

    /**
     * A verdict that allows, expressed by the first {@code allow_once} option, else the first
     * {@code allow_always}; without either, a refusal answered "cancelled".
     */
    public static PermissionVerdict allow(List<PermissionOption> offered, String reason) {
        PermissionOption option = best(offered, true);
        if (option == null) {
            return new PermissionVerdict(false, null,
                    reason + "; but the agent offered no option that allows it, so the request was cancelled");
        }
        return new PermissionVerdict(true, option.optionId(), reason);
    }

    /**
     * A verdict that refuses, expressed by the narrowest refusal offered: the first {@code reject_once},
     * else the first {@code reject_always}, and one known to end the agent's whole turn only when there
     * is no other; without any, "cancelled".
     */
    public static PermissionVerdict refuse(List<PermissionOption> offered, String reason) {
        PermissionOption option = best(offered, false);
        if (option == null) {
            return new PermissionVerdict(false, null,
                    reason + " (the agent offered no option that refuses it, so the request was cancelled)");
        }
        return new PermissionVerdict(false, option.optionId(), reason);
    }

    /** True when no option fitted and the answer is "cancelled". */
    public boolean cancelled() {
        return optionId == null;
    }

    /**
     * The JSON result of {@code session/request_permission}:
     * {@code {"outcome":{"outcome":"selected","optionId":...}}}, or {@code {"outcome":{"outcome":"cancelled"}}}
     * when no option fits.
     */
    public ObjectNode toResult() {
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        ObjectNode outcome = result.putObject("outcome");
        // PROTOCOL (ACP RequestPermissionOutcome): the id must be one the agent offered in this request.
        // PEER (claude-agent-acp): an unknown optionId throws and fails the whole turn.
        if (optionId == null) {
            outcome.put("outcome", "cancelled");
        } else {
            outcome.put("outcome", "selected");
            outcome.put("optionId", optionId);
        }
        return result;
    }

    private static PermissionOption best(List<PermissionOption> offered, boolean allowing) {
        PermissionOption best = null;
        int bestRank = Integer.MAX_VALUE;
        for (PermissionOption option : offered) {
            int rank = allowing ? allowRank(option) : refusalRank(option);
            if (rank >= 0 && rank < bestRank) {
                best = option;
                bestRank = rank;
            }
        }
        return best;
    }

    private static int allowRank(PermissionOption option) {
        String kind = String.valueOf(option.kind());
        return switch (kind) {
            case PermissionOption.ALLOW_ONCE -> 0;
            case PermissionOption.ALLOW_ALWAYS -> 1;
            default -> -1;
        };
    }

    private static int refusalRank(PermissionOption option) {
        String kind = String.valueOf(option.kind());
        boolean once = kind.equals(PermissionOption.REJECT_ONCE);
        if (!once && !kind.equals(PermissionOption.REJECT_ALWAYS)) {
            return -1;
        }
        if (TURN_ENDING_REFUSALS.contains(option.optionId())) {
            return once ? 2 : 3;
        }
        return once ? 0 : 1;
    }
}
