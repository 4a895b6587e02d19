package legate.acp.protocol;

/**
 * Why the agent ended a prompt turn. An open set: the spec names five, a newer agent may send
 * another, and an unknown value is kept as it came rather than treated as an error.
 */
public record StopReason(String value) {
    public static final StopReason END_TURN = new StopReason("end_turn");
    public static final StopReason MAX_TOKENS = new StopReason("max_tokens");
    public static final StopReason MAX_TURN_REQUESTS = new StopReason("max_turn_requests");
    public static final StopReason REFUSAL = new StopReason("refusal");
    public static final StopReason CANCELLED = new StopReason("cancelled");

    public StopReason {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a stop reason is a non-empty string");
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
