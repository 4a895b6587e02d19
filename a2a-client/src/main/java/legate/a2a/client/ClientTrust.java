package legate.a2a.client;

import javax.net.ssl.SSLContext;
import legate.a2a.model.signature.CardVerifier;

/**
 * What a client trusts beyond the network: the certificate authorities it accepts for https, and
 * the keys an agent's card must be signed with.
 *
 * @param tls the TLS context for https (one from {@link TrustedCertificates#withCaFile}); null: the
 *            JDK's own trusted authorities
 * @param cardKeys when set, a card none of whose signatures verifies with these keys is refused
 *                 before anything is sent to the agent (A2A §8.4); null: cards are not checked
 */
public record ClientTrust(SSLContext tls, CardVerifier cardKeys) {
    /** The JDK's authorities, cards unchecked. */
    public static final ClientTrust DEFAULTS = new ClientTrust(null, null);

    public ClientTrust withTls(SSLContext context) {
        return new ClientTrust(context, cardKeys);
    }

    public ClientTrust withCardKeys(CardVerifier verifier) {
        return new ClientTrust(tls, verifier);
    }
}
