package legate.a2a.server.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.List;
import legate.wire.http.KnownHosts;

/**
 * The gRPC listener's part of the Host check every listener of the server makes (README "Security",
 * {@code legate.a2a.server.edge.HostHandler}): a call whose HTTP/2 {@code :authority} is not a name
 * the server is known by is closed PERMISSION_DENIED before its request is read.
 *
 * <p>A browser cannot speak gRPC to this port (no browser sends h2c, and over TLS a rebound name
 * fails the certificate), so this is consistency rather than the rebinding defence itself: every
 * listener answers the same names, and ALLOWED_HOSTS means the same everywhere. The names are known
 * once the card is built, after the port is bound; until then only the loopback names pass, and
 * the service answers UNAVAILABLE anyway.
 *
 * <p>DEFECT (issue 30, defect 3): the gRPC port ran a call whatever authority it named.
 */
final class AuthorityInterceptor implements ServerInterceptor {
    // Until the names are known, the loopback names only: nothing is served before then anyway.
    private volatile KnownHosts hosts = KnownHosts.of(List.of());

    /** From now on only {@code known} is answered. */
    void answer(KnownHosts known) {
        this.hosts = known;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        String authority = call.getAuthority();
        // No authority at all: nothing to check, and no browser is behind such a call.
        if (authority == null || hosts.allows(authority)) {
            return next.startCall(call, headers);
        }
        call.close(Status.PERMISSION_DENIED.withDescription("this server does not answer to the host name \""
                + authority.replaceAll("[\\p{Cntrl}\"]", "?") + "\"; if clients reach it by that name, add it to"
                + " ALLOWED_HOSTS"), new Metadata());
        return new ServerCall.Listener<>() {
        };
    }
}
