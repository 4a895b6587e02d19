package legate.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Whether a server may listen where it is told to (README "Security"): without an authentication
 * scheme only on loopback, unless the person says they mean it; and never on a wildcard address
 * without PUBLIC_URL, since the card would then send callers to 127.0.0.1, which no other machine
 * can dial.
 *
 * @param refusal why the server must not start, or null
 * @param warning what to print at start, or null
 */
record ServerExposure(String refusal, String warning) {

    static ServerExposure of(String host, String publicUrl, boolean authenticated, boolean insecure) {
        InetAddress address = resolve(host);
        boolean wildcard = address != null && address.isAnyLocalAddress();
        boolean loopback = address != null && address.isLoopbackAddress();
        if (wildcard && (publicUrl == null || publicUrl.isBlank())) {
            return new ServerExposure("HOST=" + host + " listens on every address, but the Agent Card would tell"
                    + " callers to dial 127.0.0.1, which no other machine can reach. Set PUBLIC_URL to the URL"
                    + " callers use (for example https://agent.example.com/).", null);
        }
        if (loopback || authenticated) {
            return new ServerExposure(null, null);
        }
        if (!insecure) {
            return new ServerExposure("HOST=" + host + " is not a loopback address and no authentication is"
                    + " configured, so anyone who can reach it could run tasks here. Set A2A_TOKENS_FILE (or"
                    + " A2A_JWKS_URL / A2A_JWT_KEY), or pass --insecure (A2A_INSECURE=true) if that is what you mean.", null);
        }
        return new ServerExposure(null, "WARNING: listening on " + host + " without authentication (--insecure):"
                + " anyone who can reach this address can run tasks and read every task.");
    }

    /** The address to bind, or null for a name that does not resolve (the bind then fails and says so). */
    private static InetAddress resolve(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            return InetAddress.getByName(h);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
