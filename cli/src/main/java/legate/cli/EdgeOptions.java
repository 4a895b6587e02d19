package legate.cli;

import java.nio.file.Path;
import java.time.Instant;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.edge.CorsPolicy;
import legate.a2a.server.edge.TlsIdentity;
import legate.wire.http.KnownHosts;
import legate.wire.pem.PemException;
import picocli.CommandLine.Option;

/**
 * How {@code legate agent} and {@code legate bridge} present themselves on the network, as one
 * picocli mixin: TLS (TLS_CERT, TLS_KEY), the card signing key (CARD_SIGNING_KEY) and the browser
 * origins answered across origins (CORS_ORIGINS), the Host names answered besides the server's own
 * (ALLOWED_HOSTS). Every part is off unless its key is set.
 */
final class EdgeOptions {
    static final String TLS_CERT = "TLS_CERT";
    static final String TLS_KEY = "TLS_KEY";
    static final String CARD_SIGNING_KEY = "CARD_SIGNING_KEY";
    static final String CORS_ORIGINS = "CORS_ORIGINS";
    static final String ALLOWED_HOSTS = "ALLOWED_HOSTS";

    @Option(names = "--tls-cert", descriptionKey = TLS_CERT, paramLabel = "PEM",
            description = "Serve HTTPS with this certificate (PEM; the chain may follow it) [TLS_CERT]; needs --tls-key.")
    Path tlsCert;

    @Option(names = "--tls-key", descriptionKey = TLS_KEY, paramLabel = "PEM",
            description = "The certificate's private key (PEM: PKCS#8, or traditional RSA/EC) [TLS_KEY].")
    Path tlsKey;

    @Option(names = "--card-signing-key", descriptionKey = CARD_SIGNING_KEY, paramLabel = "PEM",
            description = "Sign the Agent Card with this private key (PEM: EC P-256, Ed25519 or RSA) and publish its "
                    + "public half at /.well-known/jwks.json [CARD_SIGNING_KEY].")
    Path cardSigningKey;

    @Option(names = "--cors-origins", descriptionKey = CORS_ORIGINS, paramLabel = "ORIGINS",
            description = "Browser origins allowed to call across origins, comma-separated, matched exactly "
                    + "(e.g. https://app.example.com) [CORS_ORIGINS] (default: none: a browser page of another "
                    + "origin is refused 403).")
    String corsOrigins;

    @Option(names = "--allowed-hosts", descriptionKey = ALLOWED_HOSTS, paramLabel = "HOSTS",
            description = "Host names (any port) or name:port the server answers besides its bind address, "
                    + "localhost, 127.0.0.1, [::1] and PUBLIC_URL's host, comma-separated; another Host is refused "
                    + "421 (DNS-rebinding defence). '*' answers every Host: only behind a reverse proxy that "
                    + "checks Host itself [ALLOWED_HOSTS] (default: none).")
    String allowedHosts;

    /** A setting that names a file the server cannot use, or a value it cannot read. */
    static final class Unusable extends Exception {
        private final int exitCode;

        Unusable(String message, int exitCode) {
            super(message);
            this.exitCode = exitCode;
        }

        /** 2 for a value that is wrong as written, 1 for a file that cannot be used (as a store that cannot be opened). */
        int exitCode() {
            return exitCode;
        }
    }

    /** The edge read from the settings alone, for a command built without picocli. */
    static EdgeOptions fromSettings(Settings settings) {
        EdgeOptions e = new EdgeOptions();
        e.tlsCert = settings.get(TLS_CERT).map(Path::of).orElse(null);
        e.tlsKey = settings.get(TLS_KEY).map(Path::of).orElse(null);
        e.cardSigningKey = settings.get(CARD_SIGNING_KEY).map(Path::of).orElse(null);
        e.corsOrigins = settings.get(CORS_ORIGINS).orElse(null);
        e.allowedHosts = settings.get(ALLOWED_HOSTS).orElse(null);
        return e;
    }

    /**
     * Reads every file the settings name, so that a bad one stops the server before it listens.
     *
     * @param apiKeyHeader the header the API key scheme reads (A2A_API_KEY_HEADER, owned by
     *     {@link SecurityOptions}), which a CORS preflight must allow by name
     */
    ServerEdge edge(String apiKeyHeader) throws Unusable {
        ServerEdge edge = ServerEdge.PLAIN;
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new Unusable("TLS_CERT and TLS_KEY go together: set both to serve HTTPS, or neither", 2);
        }
        try {
            if (tlsCert != null) {
                edge = edge.withTls(TlsIdentity.read(tlsCert, tlsKey, Instant.now()));
            }
        } catch (PemException e) {
            throw new Unusable("TLS_CERT/TLS_KEY: " + e.getMessage(), 1);
        }
        try {
            if (cardSigningKey != null) {
                edge = edge.withCardKey(CardSigningKey.read(cardSigningKey));
            }
        } catch (PemException e) {
            throw new Unusable("CARD_SIGNING_KEY: " + e.getMessage(), 1);
        }
        try {
            edge = edge.withAllowedHosts(KnownHosts.parseSetting(allowedHosts, ALLOWED_HOSTS));
        } catch (IllegalArgumentException e) {
            throw new Unusable(e.getMessage(), 2);
        }
        try {
            return edge.withCors(CorsPolicy.parse(corsOrigins, apiKeyHeader));
        } catch (IllegalArgumentException e) {
            throw new Unusable("CORS_ORIGINS: " + e.getMessage(), 2);
        }
    }
}
