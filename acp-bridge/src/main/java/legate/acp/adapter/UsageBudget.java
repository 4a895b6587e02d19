package legate.acp.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a conversation has cost so far: the token counts of every prompt answer summed, and the
 * latest context-window report. PEER (claude-agent-acp): the prompt answer carries {@code usage}
 * {inputTokens, outputTokens, cachedReadTokens, cachedWriteTokens, totalTokens}, and
 * {@code usage_update} notifications carry {used, size, cost}; codex-acp reports neither.
 */
public final class UsageBudget {
    private static final String[] TOKEN_FIELDS = {"inputTokens", "outputTokens", "cachedReadTokens", "cachedWriteTokens",
        "totalTokens"};

    private final Map<String, Long> tokens = new LinkedHashMap<>();
    private int prompts;
    private JsonNode window;

    public synchronized void addPrompt(JsonNode usage) {
        prompts++;
        if (usage == null) {
            return;
        }
        for (String field : TOKEN_FIELDS) {
            JsonNode n = usage.get(field);
            if (n != null && n.canConvertToLong()) {
                tokens.merge(field, n.asLong(), Long::sum);
            }
        }
    }

    /**
     * Keeps the latest report and returns how much its cost rose since the previous one, 0 when it
     * carries none. PEER (claude-agent-acp): {@code cost} is {amount, currency}, the session's total so far.
     */
    public synchronized double window(JsonNode usageUpdate) {
        double before = amount(window);
        this.window = usageUpdate;
        double after = amount(usageUpdate);
        return after > before ? after - before : 0;
    }

    /** The currency of the latest cost report, "" when there is none. */
    public synchronized String currency() {
        return window == null ? "" : window.path("cost").path("currency").asText("");
    }

    private static double amount(JsonNode usageUpdate) {
        JsonNode a = usageUpdate == null ? null : usageUpdate.path("cost").get("amount");
        return a != null && a.isNumber() ? a.asDouble() : 0;
    }

    /** The running totals, for the calls log. */
    public synchronized Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("prompts", prompts);
        m.putAll(tokens);
        if (window != null) {
            m.put("contextUsed", window.get("used"));
            m.put("contextSize", window.get("size"));
            m.put("cost", window.get("cost"));
        }
        return m;
    }
}
