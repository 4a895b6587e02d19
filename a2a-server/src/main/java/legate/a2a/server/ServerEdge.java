package legate.a2a.server;

import com.nimbusds.jose.jwk.JWK;
import java.util.List;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.server.edge.CorsPolicy;
import legate.a2a.server.edge.TlsIdentity;

/**
 * How an {@link AgentServer} presents itself on the network, beyond its address: the TLS identity
 * it serves HTTPS with, the key it signs its Agent Card with, and the browser origins it answers
 * across origins, and the host names it answers to besides those it knows itself. Each part is
 * optional; {@link #PLAIN} has none (HTTP, an unsigned card, no CORS, no extra host names).
 *
 * @param tls the certificate chain and key for HTTPS (HTTP/2 by ALPN, HTTP/1.1 otherwise); null: plain HTTP
 * @param cardKey signs the card (A2A §8.4), and its public JWK is published at
 *                {@link legate.a2a.server.card.JwksHandler#PATH}; null: the card is not signed
 * @param cors the origins a browser may call from across origins; null: none (a browser page of
 *             another origin is refused 403)
 * @param allowedHosts ALLOWED_HOSTS: Host names (any port) or name:port answered besides the bind
 *                     address, the loopback names and the hosts of the card's URLs; {@code *} answers
 *                     every Host (README "Security": only behind a proxy that checks Host itself)
 */
public record ServerEdge(TlsIdentity tls, CardSigningKey cardKey, CorsPolicy cors, List<String> allowedHosts) {
    public static final ServerEdge PLAIN = new ServerEdge(null, null, null, List.of());

    public ServerEdge {
        allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
    }

    /**
     * The public keys the server publishes in its JWKS: the card signing key's today. Push
     * notification signatures, when the server sends them, publish their key in the same set, so
     * a receiver resolves either from the one URL.
     */
    public List<JWK> publishedKeys() {
        return cardKey == null ? List.of() : List.of(cardKey.publicJwk());
    }

    public ServerEdge withTls(TlsIdentity identity) {
        return new ServerEdge(identity, cardKey, cors, allowedHosts);
    }

    public ServerEdge withCardKey(CardSigningKey key) {
        return new ServerEdge(tls, key, cors, allowedHosts);
    }

    public ServerEdge withCors(CorsPolicy policy) {
        return new ServerEdge(tls, cardKey, policy, allowedHosts);
    }

    /** The same, answering {@code hosts} too (ALLOWED_HOSTS, parsed by {@code KnownHosts.parseList}). */
    public ServerEdge withAllowedHosts(List<String> hosts) {
        return new ServerEdge(tls, cardKey, cors, hosts);
    }
}
