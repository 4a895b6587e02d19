package legate.a2a.server.edge;

import legate.wire.http.KnownHosts;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The first thing every HTTP listener of the server does (every binding, the card, the JWKS,
 * {@code /metrics}): a request whose {@code Host} is not a name the server is known by is answered
 * 421 Misdirected Request, before anything else is read (README "Security").
 *
 * <p>DEFECT (issue 30): with a loopback bind and no authentication, a page that pointed a name it
 * controls at 127.0.0.1 ran tasks through the victim's browser ({@code Host:
 * rebind.attacker.example:PORT}), and read {@code /v1/tasks} and {@code /metrics}.
 *
 * <p>PROTOCOL (RFC 9110 §15.5.20): 421 says the request reached a server not configured to answer
 * for that authority. HTTP/2 carries the authority as {@code :authority}, which Jetty puts in the
 * request's URI. A request with no authority at all (HTTP/1.0 without Host, as some health checks
 * send) passes: no browser sends one, so it cannot be a rebinding page.
 */
public final class HostHandler extends Handler.Wrapper {
    private final KnownHosts hosts;

    public HostHandler(KnownHosts hosts, Handler next) {
        super(next);
        this.hosts = hosts;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String host = request.getHeaders().get(HttpHeader.HOST);
        if (host == null) {
            host = request.getHttpURI().getAuthority();
        }
        if (host == null || hosts.allows(host)) {
            return super.handle(request, response, callback);
        }
        Response.writeError(request, response, callback, 421, "this server does not answer to the host name "
                + printable(host) + "; if clients reach it by that name, add it to ALLOWED_HOSTS (comma-separated,"
                + " or set PUBLIC_URL to the URL they use)");
        return true;
    }

    private static String printable(String s) {
        return "\"" + s.replaceAll("[\\p{Cntrl}\"]", "?") + "\"";
    }
}
