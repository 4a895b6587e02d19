package legate.a2a.client.internal;

import com.google.protobuf.Message;
import java.time.Duration;
import legate.a2a.client.AccessTokens;
import legate.a2a.client.AgentErrorException;
import legate.a2a.client.StreamEnd;
import legate.a2a.model.A2aError;

/**
 * A transport whose calls carry an access token the client obtained ({@link AccessTokens}): when
 * the agent refuses the credential (A2A §3.3.2: HTTP 401 / UNAUTHENTICATED) although the token has
 * not reached its expiry (revoked, or the agent's clock ahead of the client's), the token is
 * dropped and the call made once more with a new one. An authentication refusal comes before the
 * call does anything, so nothing runs twice; a second refusal is the caller's to see.
 */
public final class TokenRenewingTransport implements Transport {
    private final Transport inner;
    private final AccessTokens tokens;

    public TokenRenewingTransport(Transport inner, AccessTokens tokens) {
        this.inner = inner;
        this.tokens = tokens;
    }

    @Override
    public <B extends Message.Builder> B call(String method, Message request, B result, Duration bound) {
        try {
            return inner.call(method, request, result, bound);
        } catch (AgentErrorException e) {
            if (!unauthenticated(e)) {
                throw e;
            }
            tokens.forget();
            return inner.call(method, request, result, bound);
        }
    }

    @Override
    public StreamEnd stream(String method, Message request, StreamProgress progress) {
        try {
            return inner.stream(method, request, progress);
        } catch (AgentErrorException e) {
            if (!unauthenticated(e)) {
                throw e;
            }
            tokens.forget();
            return inner.stream(method, request, progress);
        }
    }

    /**
     * By the ErrorInfo reason only: -32000 alone is JSON-RPC's generic server error, which another
     * agent may answer after it did something, and a call is made again only when nothing ran.
     */
    private static boolean unauthenticated(AgentErrorException e) {
        return A2aError.UNAUTHENTICATED.reason().equals(e.reason());
    }
}
