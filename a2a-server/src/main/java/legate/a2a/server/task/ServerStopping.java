package legate.a2a.server.task;

import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;

/**
 * A new turn asked of a server that is draining before it stops: refused, so the turns it already
 * runs can finish in the time it has. The JSON-RPC binding answers it with HTTP 503, which a load
 * balancer takes as "try another instance"; the A2A code is -32603, the spec having none of its own
 * for an agent that is going away.
 */
public final class ServerStopping extends A2aException {
    ServerStopping() {
        super(A2aError.INTERNAL, "The agent is shutting down and takes no new work; send the message again in a moment");
    }
}
