package legate.cli;

import java.net.URI;
import java.net.URISyntaxException;
import legate.wire.http.BindAddress;

/**
 * The public URL of a server and the path its JSON-RPC endpoint answers on. PUBLIC_URL may name
 * another host and port (a proxy such as the tap in front of the server); its path is the path
 * the server itself answers on, because a transparent proxy forwards paths unchanged.
 */
record ServerSetup(String host, String explicitUrl, String rpcPath, boolean https) {

    /** Null (after printing why) when PUBLIC_URL is not an absolute http(s) URL. */
    static ServerSetup of(String host, int port, String publicUrl) {
        if (publicUrl == null || publicUrl.isBlank()) {
            return new ServerSetup(host, null, "/", false);
        }
        try {
            URI uri = new URI(publicUrl.trim());
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                System.err.println("legate: PUBLIC_URL must be an absolute http(s) URL, got " + publicUrl);
                return null;
            }
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return new ServerSetup(host, uri.toString(), path, false);
        } catch (URISyntaxException e) {
            System.err.println("legate: PUBLIC_URL is not a URL: " + e.getMessage());
            return null;
        }
    }

    /** The same, for a server that serves HTTPS (TLS_CERT): its default public URL is https. */
    ServerSetup withHttps(boolean on) {
        return new ServerSetup(host, explicitUrl, rpcPath, on);
    }

    String publicUrl(int boundPort) {
        if (explicitUrl != null) {
            return explicitUrl;
        }
        return BindAddress.dialableUrl(https, host, boundPort, "/");
    }

    /** Where this server answers JSON-RPC, as this machine dials it; what the start-up line shows. */
    String listeningUrl(int boundPort) {
        return BindAddress.dialableUrl(https, host, boundPort, rpcPath);
    }
}
