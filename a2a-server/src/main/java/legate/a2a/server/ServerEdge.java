package legate.a2a.server;

import com.nimbusds.jose.jwk.JWK;
import java.util.List;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.server.edge.CorsPolicy;
import legate.a2a.server.edge.TlsIdentity;

/**
 * How an {@link AgentServer} presents itself on the network, beyond its address: the TLS identity
 * it serves HTTPS with, the key it signs its Agent Card with, and the browser origins it answers
 * across origins. Each part is optional; {@link #PLAIN} has none (HTTP, an unsigned card, no CORS).
 *
 * @param tls the certificate chain and key for HTTPS (HTTP/2 by ALPN, HTTP/1.1 otherwise); null: plain HTTP
 * @param cardKey signs the card (A2A §8.4), and its public JWK is published at
 *                {@link legate.a2a.server.card.JwksHandler#PATH}; null: the card is not signed
 * @param cors the origins a browser may call from; null: no CORS headers, as before
 */
public record ServerEdge(TlsIdentity tls, CardSigningKey cardKey, CorsPolicy cors) {
    public static final ServerEdge PLAIN = new ServerEdge(null, null, null);

    /**
     * The public keys the server publishes in its JWKS: the card signing key's today. Push
     * notification signatures, when the server sends them, publish their key in the same set, so
     * a receiver resolves either from the one URL.
     */
    public List<JWK> publishedKeys() {
        return cardKey == null ? List.of() : List.of(cardKey.publicJwk());
    }

    public ServerEdge withTls(TlsIdentity identity) {
        return new ServerEdge(identity, cardKey, cors);
    }

    public ServerEdge withCardKey(CardSigningKey key) {
        return new ServerEdge(tls, key, cors);
    }

    public ServerEdge withCors(CorsPolicy policy) {
        return new ServerEdge(tls, cardKey, policy);
    }
}
