package legate.a2a.server.edge;

import java.util.List;
import java.util.Set;

/**
 * Which browser origins may call the server across origins (the Fetch standard's CORS protocol),
 * and what a preflight allows them.
 *
 * <p>Origins match exactly (scheme, host and port, as the browser sends them in {@code Origin});
 * there is no wildcard. Credentials travel in request headers (Authorization, the API key header),
 * which a preflight allows by name; cookies are never credentials here, so
 * {@code Access-Control-Allow-Credentials} is not sent.
 *
 * @param origins the allowed origins, e.g. {@code https://app.example.com}
 * @param apiKeyHeader the header an API key travels in, allowed besides A2A's own
 */
public record CorsPolicy(Set<String> origins, String apiKeyHeader) {
    /** Default name of the API key header (A2A_API_KEY_HEADER). */
    public static final String DEFAULT_API_KEY_HEADER = "X-API-Key";

    public CorsPolicy {
        origins = Set.copyOf(origins);
        if (origins.isEmpty()) {
            throw new IllegalArgumentException("a CORS policy needs at least one origin");
        }
        for (String o : origins) {
            if (o.equals("*") || !o.matches("https?://[^/\\s]+")) {
                throw new IllegalArgumentException("a CORS origin is scheme://host[:port] with no path and no wildcard, got "
                        + o);
            }
        }
        if (apiKeyHeader == null || apiKeyHeader.isBlank()) {
            apiKeyHeader = DEFAULT_API_KEY_HEADER;
        }
    }

    /** Parses CORS_ORIGINS: comma-separated origins; null or blank means CORS is off (null). */
    public static CorsPolicy parse(String origins, String apiKeyHeader) {
        if (origins == null || origins.isBlank()) {
            return null;
        }
        List<String> list = List.of(origins.split(",")).stream().map(String::trim).filter(s -> !s.isEmpty())
                .map(s -> s.endsWith("/") ? s.substring(0, s.length() - 1) : s).toList();
        return new CorsPolicy(Set.copyOf(list), apiKeyHeader);
    }

    public boolean allows(String origin) {
        return origins.contains(origin);
    }

    /**
     * The request headers a browser client may send: PROTOCOL (A2A §3.2, §3.6): Content-Type,
     * A2A-Version and A2A-Extensions on every call, and X-A2A-Extensions, v0.3's name of the latter,
     * which a v0.3 client of the /v0.3/ path sends (a preflight that does not allow a header the
     * page sends makes the browser drop the whole request); Authorization or the API key for the
     * declared schemes (A2A §7); Last-Event-ID, which an EventSource sends to resume a stream
     * (HTML §9.2) and a fetch-based client sets itself.
     */
    public String allowedHeaders() {
        return "Content-Type, A2A-Version, A2A-Extensions, X-A2A-Extensions, Authorization, " + apiKeyHeader
                + ", Last-Event-ID";
    }
}
