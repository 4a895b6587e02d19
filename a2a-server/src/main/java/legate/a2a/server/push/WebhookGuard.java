package legate.a2a.server.push;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/**
 * The rules a webhook URL must pass, at registration and again before every delivery attempt (a
 * name's DNS answer may change between the two: the check is worth only as much as its freshness).
 * PROTOCOL (A2A §13.2): the agent, not the caller, guards against server-side request forgery.
 *
 * <ol>
 *   <li>"absolute URL": an absolute {@code https} or {@code http} URL with a host;
 *   <li>"https": plain {@code http} only for a host in PUSH_ALLOW_HOSTS;
 *   <li>"no credentials": no {@code user:password@} in the URL (it would be sent to whoever the
 *       host is, and logged wherever the URL is);
 *   <li>"public address": every address the host resolves to is public (not loopback, private,
 *       link-local, multicast, unspecified or reserved; see {@link ReservedAddresses}), unless the
 *       host is in PUSH_ALLOW_HOSTS; a host that does not resolve is refused too.
 * </ol>
 * Redirects are the delivery's business: they are never followed.
 */
public final class WebhookGuard {
    private final AllowedHosts allowed;
    private final HostResolver resolver;

    public WebhookGuard(AllowedHosts allowed, HostResolver resolver) {
        this.allowed = allowed;
        this.resolver = resolver;
    }

    /** The URL, parsed, when it passes every rule. */
    public URI check(String url) throws WebhookRefused {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new WebhookRefused("absolute URL", "\"" + url + "\" is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw new WebhookRefused("absolute URL", "\"" + url + "\" is not an absolute https URL with a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new WebhookRefused("no credentials", "the URL carries a user name or password; send credentials"
                    + " in the configuration's authentication instead");
        }
        String host = uri.getHost();
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        boolean listed = allowed.allows(host, port);
        if (scheme.equals("http") && !listed) {
            throw new WebhookRefused("https", host + ":" + port + " is reached over plain http, which only hosts in"
                    + " PUSH_ALLOW_HOSTS may be");
        }
        if (listed) {
            return uri;
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(bare);
        } catch (UnknownHostException e) {
            throw new WebhookRefused("public address", host + " does not resolve");
        }
        if (addresses.isEmpty()) {
            throw new WebhookRefused("public address", host + " does not resolve");
        }
        for (InetAddress a : addresses) {
            String kind = ReservedAddresses.kind(a);
            if (kind != null) {
                throw new WebhookRefused("public address", host + " resolves to " + a.getHostAddress() + ", a " + kind
                        + " address; list the host in PUSH_ALLOW_HOSTS if it is meant");
            }
        }
        return uri;
    }
}
