package legate.mcp.guard;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;

/**
 * The bearer check on every MCP request: a missing or wrong {@code Authorization: Bearer} token is
 * answered 401 with a {@code WWW-Authenticate} challenge and goes no further.
 *
 * <p>PROTOCOL (RFC 6750 §3): a request without credentials gets a challenge with no error code; a
 * request with a wrong token gets {@code error="invalid_token"}. The endpoint reaches agents that
 * may write code on this machine, so nothing, not even the MCP handshake, passes without the token.
 */
public final class BearerGuard extends HttpFilter {
    private static final String SCHEME = "Bearer";

    private final BearerToken token;
    private final String realm;

    public BearerGuard(BearerToken token, String realm) {
        this.token = token;
        this.realm = realm.replace("\"", "'");
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String header = request.getHeader("Authorization");
        String presented = bearerOf(header);
        if (presented == null) {
            response.setHeader("WWW-Authenticate", SCHEME + " realm=\"" + realm + "\"");
            new Refusal(HttpServletResponse.SC_UNAUTHORIZED,
                    "this MCP endpoint needs the header Authorization: Bearer <token> (the token is in .mcp-token)")
                    .writeTo(response);
            return;
        }
        if (!token.matches(presented)) {
            response.setHeader("WWW-Authenticate", SCHEME + " realm=\"" + realm
                    + "\", error=\"invalid_token\", error_description=\"the token is not this endpoint's\"");
            new Refusal(HttpServletResponse.SC_UNAUTHORIZED, "the bearer token is not this endpoint's").writeTo(response);
            return;
        }
        chain.doFilter(request, response);
    }

    /** The token of a {@code Bearer} credential; the scheme is case-insensitive (RFC 9110 §11.1). */
    static String bearerOf(String header) {
        if (header == null) {
            return null;
        }
        String h = header.strip();
        if (h.length() <= SCHEME.length() || !h.substring(0, SCHEME.length()).toLowerCase(Locale.ROOT).equals("bearer")
                || !Character.isWhitespace(h.charAt(SCHEME.length()))) {
            return null;
        }
        String value = h.substring(SCHEME.length()).strip();
        return value.isEmpty() ? null : value;
    }
}
