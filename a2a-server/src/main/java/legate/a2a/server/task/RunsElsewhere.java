package legate.a2a.server.task;

import java.net.URI;

/**
 * A request that another instance of the agent must carry out, because the conversation it
 * belongs to runs there (see {@link InstanceGroup#runnerElsewhere}). Thrown by the request
 * handler before it has changed anything, so the binding can forward the request as it came and
 * relay the answer.
 */
public final class RunsElsewhere extends RuntimeException {
    private final URI instanceUrl;

    RunsElsewhere(String contextId, URI instanceUrl) {
        super("context " + contextId + " runs on the instance at " + instanceUrl, null, false, false);
        this.instanceUrl = instanceUrl;
    }

    /** The URL the instance that runs the conversation answers JSON-RPC at (its INSTANCE_URL). */
    public URI instanceUrl() {
        return instanceUrl;
    }
}
