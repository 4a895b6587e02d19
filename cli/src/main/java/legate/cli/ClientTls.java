package legate.cli;

import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import legate.a2a.client.ClientCertificate;
import legate.a2a.client.ClientTrust;
import legate.a2a.client.TrustedCertificates;
import legate.wire.pem.PemException;

/**
 * How {@code legate client}, {@code legate mcp} and {@code legate tap} dial https agents: the certificate authorities
 * they trust beside the JDK's (A2A_CA_CERT) and the certificate they present to an agent that asks
 * for one (A2A_CLIENT_CERT and A2A_CLIENT_KEY, mutual TLS).
 *
 * @param context the TLS context, or null for the JDK's own (nothing was set)
 * @param presentsCertificate whether the context presents a client certificate, which meets a
 *     card's mutual TLS scheme
 */
record ClientTls(SSLContext context, boolean presentsCertificate) {
    static final ClientTls DEFAULT = new ClientTls(null, false);

    /**
     * Reads the files the settings name; null arguments are unset.
     *
     * @throws IllegalArgumentException naming the setting that cannot be used, and why
     */
    static ClientTls of(Path caCert, Path clientCert, Path clientKey) {
        if ((clientCert == null) != (clientKey == null)) {
            throw new IllegalArgumentException("--client-cert and --client-key (A2A_CLIENT_CERT, A2A_CLIENT_KEY) go"
                    + " together: set both, or neither");
        }
        if (caCert == null && clientCert == null) {
            return DEFAULT;
        }
        ClientCertificate certificate;
        try {
            certificate = clientCert == null ? null : ClientCertificate.read(clientCert, clientKey);
        } catch (PemException e) {
            throw new IllegalArgumentException("--client-cert/--client-key (A2A_CLIENT_CERT, A2A_CLIENT_KEY): "
                    + e.getMessage());
        }
        try {
            return new ClientTls(TrustedCertificates.context(caCert, certificate), certificate != null);
        } catch (PemException e) {
            throw new IllegalArgumentException("--ca-cert (A2A_CA_CERT): " + e.getMessage());
        }
    }

    /** The client trust that dials with this context (the JDK's when none). */
    ClientTrust trust() {
        return context == null ? ClientTrust.DEFAULTS : ClientTrust.DEFAULTS.withTls(context);
    }
}
