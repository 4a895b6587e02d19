package legate.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * How {@code legate client}, {@code legate mcp} and {@code legate tap} dial https agents, as one
 * picocli mixin: the certificate authorities trusted beside the JDK's and the client certificate
 * presented to an agent that asks for one (mutual TLS). Inherited by {@code legate client}'s
 * subcommands.
 */
final class ClientTlsOptions {
    @Option(names = "--ca-cert", descriptionKey = "A2A_CA_CERT", paramLabel = "PEM", scope = ScopeType.INHERIT,
            description = "Also trust the certificate authorities in this PEM file for https (besides the JDK's) [A2A_CA_CERT].")
    Path caCert;

    @Option(names = "--client-cert", descriptionKey = "A2A_CLIENT_CERT", paramLabel = "PEM", scope = ScopeType.INHERIT,
            description = "Present this TLS client certificate (PEM; the chain may follow it) to an https agent that asks"
                    + " for one: a card's mutual TLS scheme [A2A_CLIENT_CERT]; needs --client-key.")
    Path clientCert;

    @Option(names = "--client-key", descriptionKey = "A2A_CLIENT_KEY", paramLabel = "PEM", scope = ScopeType.INHERIT,
            description = "The client certificate's private key (PEM: PKCS#8, or traditional RSA/EC) [A2A_CLIENT_KEY].")
    Path clientKey;

    /**
     * The files read into a TLS context.
     *
     * @throws IllegalArgumentException naming the setting that cannot be used, and why
     */
    ClientTls tls() {
        return ClientTls.of(caCert, clientCert, clientKey);
    }
}
