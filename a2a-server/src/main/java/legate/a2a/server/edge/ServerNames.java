package legate.a2a.server.edge;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import legate.wire.http.KnownHosts;

/**
 * The names a server is known by, made once when it starts: the Host names its listeners answer
 * ({@link HostHandler}) and the origins that are its own ({@link CorsHandler}).
 *
 * <p>They come from what the server already says about itself: its bind address, the URLs its
 * Agent Card gives (PUBLIC_URL's host, the gRPC address it advertises), the INSTANCE_URL the other
 * instances on its database dial (they forward requests there), plus ALLOWED_HOSTS; the loopback
 * names are always among them ({@link KnownHosts}).
 *
 * @param hosts the Host names answered
 * @param ownOrigins the origins of the card's http(s) URLs, lower case
 */
public record ServerNames(KnownHosts hosts, Set<String> ownOrigins) {
    public ServerNames {
        ownOrigins = Set.copyOf(ownOrigins);
    }

    /**
     * @param bindHost the address the server binds
     * @param interfaceUrls the URLs of the card's interfaces: absolute http(s) URLs, or {@code host:port} (gRPC)
     * @param allowedHosts ALLOWED_HOSTS, as {@link legate.a2a.server.ServerEdge#allowedHosts()} holds it
     * @param instanceUrl the URL the other instances of its group forward requests to (INSTANCE_URL), if any
     */
    public static ServerNames of(String bindHost, List<String> interfaceUrls, List<String> allowedHosts,
                                 Optional<URI> instanceUrl) {
        List<String> names = new ArrayList<>(allowedHosts);
        // A forwarded request comes with INSTANCE_URL's authority as Host: without its name, a
        // conversation's turns sent by another instance would be refused 421.
        instanceUrl.map(URI::getHost).ifPresent(h -> names.add(h.toLowerCase(Locale.ROOT)));
        Set<String> origins = new HashSet<>();
        for (String url : interfaceUrls) {
            String origin = CorsHandler.originOf(url);
            if (origin != null) {
                origins.add(origin);
                names.add(URI.create(url).getHost().toLowerCase(Locale.ROOT));
            } else if (!url.contains("/")) {
                names.add(KnownHosts.nameOf(url.strip().toLowerCase(Locale.ROOT)));
            }
        }
        return new ServerNames(KnownHosts.forBind(bindHost, names), origins);
    }
}
