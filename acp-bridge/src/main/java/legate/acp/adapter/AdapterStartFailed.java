package legate.acp.adapter;

/** An agent that could not be brought to a supervised session; the failure says why in plain words. */
public final class AdapterStartFailed extends Exception {
    private final transient AgentFailure failure;

    public AdapterStartFailed(AgentFailure failure) {
        super(failure.message(), null, false, false);
        this.failure = failure;
    }

    public AgentFailure failure() {
        return failure;
    }
}
