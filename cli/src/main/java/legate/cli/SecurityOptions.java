package legate.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.ApiKeys;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificates;
import legate.a2a.server.auth.CredentialScheme;
import legate.a2a.server.auth.JwtBearer;
import legate.a2a.server.auth.PublicKeyFile;
import legate.a2a.server.auth.RevocationList;
import legate.a2a.server.auth.TokensFile;
import legate.wire.pem.PemException;
import legate.wire.pem.PemFile;
import lf.a2a.v1.AgentCard;
import picocli.CommandLine.Option;

/**
 * Who may call the A2A server of {@code legate agent} and {@code legate bridge}, and how much each
 * caller may run (README "Security"), as one picocli mixin of {@link ServerOptions}.
 */
final class SecurityOptions {
    static final String TOKENS_FILE = "A2A_TOKENS_FILE";
    static final String API_KEY_HEADER = "A2A_API_KEY_HEADER";
    static final String JWKS_URL = "A2A_JWKS_URL";
    static final String JWT_KEY = "A2A_JWT_KEY";
    static final String JWT_ISSUER = "A2A_JWT_ISSUER";
    static final String JWT_AUDIENCE = "A2A_JWT_AUDIENCE";
    static final String CLIENT_CA = "A2A_CLIENT_CA";
    static final String CLIENT_CRL = "A2A_CLIENT_CRL";
    static final String INSECURE = "A2A_INSECURE";
    static final String EXTENDED_CARD = "A2A_EXTENDED_CARD";
    static final String MAX_TASKS_PER_PRINCIPAL = "MAX_TASKS_PER_PRINCIPAL";
    /**
     * The bridge's default: each task there runs a coding agent (a process, tokens, a share of
     * ACP_MAX_AGENTS), so one caller should not take them all.
     */
    static final int BRIDGE_MAX_TASKS_PER_PRINCIPAL = 4;
    /**
     * {@code legate agent}'s default, no limit: its stub costs next to nothing per task, and a
     * limit only refused a newcomer's (and bench/'s) concurrent streams with -32004.
     */
    static final int AGENT_MAX_TASKS_PER_PRINCIPAL = 0;
    static final String MAX_STREAMS_PER_PRINCIPAL = "MAX_STREAMS_PER_PRINCIPAL";
    static final String DEFAULT_MAX_STREAMS_PER_PRINCIPAL = "" + ServerSecurity.DEFAULT_MAX_STREAMS_PER_PRINCIPAL;

    @Option(names = "--tokens-file", descriptionKey = TOKENS_FILE,
            description = "Callers' tokens, one principal:token or principal:sha256:<hex> per line; accepted as bearer tokens and API keys, re-read when it changes [A2A_TOKENS_FILE].")
    Path tokensFile;

    @Option(names = "--api-key-header", descriptionKey = API_KEY_HEADER, defaultValue = ApiKeys.DEFAULT_HEADER,
            description = "Header that carries an API key (an entry of the tokens file) [A2A_API_KEY_HEADER] (default: ${DEFAULT-VALUE}).")
    String apiKeyHeader = ApiKeys.DEFAULT_HEADER;

    @Option(names = "--jwks-url", descriptionKey = JWKS_URL,
            description = "JWKS of the identity provider whose JWT access tokens are accepted [A2A_JWKS_URL].")
    URI jwksUrl;

    @Option(names = "--jwt-key", descriptionKey = JWT_KEY,
            description = "Public key file (PEM, RSA or EC; or a JWKS) that signs accepted JWTs, instead of A2A_JWKS_URL [A2A_JWT_KEY].")
    Path jwtKey;

    @Option(names = "--jwt-issuer", descriptionKey = JWT_ISSUER,
            description = "The iss every accepted JWT must carry; without A2A_JWKS_URL or A2A_JWT_KEY, its keys are found by"
                    + " OpenID Connect Discovery from this URL [A2A_JWT_ISSUER].")
    String jwtIssuer;

    @Option(names = "--jwt-audience", descriptionKey = JWT_AUDIENCE,
            description = "The aud every accepted JWT must name [A2A_JWT_AUDIENCE].")
    String jwtAudience;

    @Option(names = "--client-ca", descriptionKey = CLIENT_CA, paramLabel = "PEM",
            description = "Mutual TLS: accept callers presenting a client certificate issued by these authorities (PEM),"
                    + " the caller named by its subject's CN; needs TLS_CERT and TLS_KEY [A2A_CLIENT_CA].")
    Path clientCa;

    @Option(names = "--client-crl", descriptionKey = CLIENT_CRL, paramLabel = "FILE",
            description = "Mutual TLS: refuse client certificates these revocation lists name (PEM X509 CRL or DER, one"
                    + " per authority), the file read again when it changes; needs A2A_CLIENT_CA [A2A_CLIENT_CRL].")
    Path clientCrl;

    @Option(names = "--insecure", descriptionKey = INSECURE, defaultValue = "false", arity = "0..1",
            description = "Serve a non-loopback address without authentication, on purpose [A2A_INSECURE] (default: ${DEFAULT-VALUE}).")
    boolean insecure;

    @Option(names = "--extended-card", descriptionKey = EXTENDED_CARD,
            description = "JSON file of AgentCard fields merged over the public card for authenticated GetExtendedAgentCard callers [A2A_EXTENDED_CARD].")
    Path extendedCard;

    // No defaultValue: the command's own default is the field's value (see the constructor), shown as ${DEFAULT-VALUE}.
    @Option(names = "--max-tasks-per-principal", descriptionKey = MAX_TASKS_PER_PRINCIPAL,
            description = "Most tasks one caller may have running at once; more are refused at once (-32004); 0: no"
                    + " limit; a task waiting for the caller's answer does not count [MAX_TASKS_PER_PRINCIPAL] (default:"
                    + " ${DEFAULT-VALUE}; legate agent: 0, no limit, its stub costs nothing; legate bridge: 4, each task"
                    + " runs a coding agent).")
    int maxTasksPerPrincipal;

    @Option(names = "--max-streams-per-principal", descriptionKey = MAX_STREAMS_PER_PRINCIPAL,
            defaultValue = DEFAULT_MAX_STREAMS_PER_PRINCIPAL,
            description = "Most streams (SendStreamingMessage, SubscribeToTask; every binding together) one caller may"
                    + " hold open at once, so that idle streams cannot use up the server's memory and connections; more"
                    + " are refused before they start (-32004); an SSE stream whose client hung up keeps its place"
                    + " until a keep-alive write to it fails, up to 40 s; 0: no limit [MAX_STREAMS_PER_PRINCIPAL] (default:"
                    + " ${DEFAULT-VALUE}).")
    int maxStreamsPerPrincipal = ServerSecurity.DEFAULT_MAX_STREAMS_PER_PRINCIPAL;

    /** @param maxTasksPerPrincipal the command's default for MAX_TASKS_PER_PRINCIPAL */
    SecurityOptions(int maxTasksPerPrincipal) {
        this.maxTasksPerPrincipal = maxTasksPerPrincipal;
    }

    /** Reads the keys {@code legate agent}'s fast start reads without picocli. */
    void readFrom(Settings settings) {
        settings.get(TOKENS_FILE).ifPresent(v -> tokensFile = Path.of(v));
        apiKeyHeader = settings.get(API_KEY_HEADER).orElse(ApiKeys.DEFAULT_HEADER);
        settings.get(JWKS_URL).ifPresent(v -> jwksUrl = URI.create(v));
        settings.get(JWT_KEY).ifPresent(v -> jwtKey = Path.of(v));
        jwtIssuer = settings.get(JWT_ISSUER).orElse(null);
        jwtAudience = settings.get(JWT_AUDIENCE).orElse(null);
        settings.get(CLIENT_CA).ifPresent(v -> clientCa = Path.of(v));
        settings.get(CLIENT_CRL).ifPresent(v -> clientCrl = Path.of(v));
        insecure = settings.get(INSECURE).map(Boolean::parseBoolean).orElse(false);
        settings.get(EXTENDED_CARD).ifPresent(v -> extendedCard = Path.of(v));
        settings.get(MAX_TASKS_PER_PRINCIPAL).ifPresent(v -> maxTasksPerPrincipal = Integer.parseInt(v));
        maxStreamsPerPrincipal = Integer.parseInt(settings.get(MAX_STREAMS_PER_PRINCIPAL)
                .orElse(DEFAULT_MAX_STREAMS_PER_PRINCIPAL));
    }

    /**
     * The server's security as configured.
     *
     * @throws IllegalArgumentException a usage error, saying which key is wrong and why
     */
    ServerSecurity security() {
        if (maxTasksPerPrincipal < 0) {
            throw new IllegalArgumentException("MAX_TASKS_PER_PRINCIPAL must be >= 0 (0: no limit), got " + maxTasksPerPrincipal);
        }
        if (maxStreamsPerPrincipal < 0) {
            throw new IllegalArgumentException("MAX_STREAMS_PER_PRINCIPAL must be >= 0 (0: no limit), got "
                    + maxStreamsPerPrincipal);
        }
        List<CredentialScheme> schemes = new ArrayList<>();
        if (tokensFile != null) {
            TokensFile tokens = new TokensFile(tokensFile.toAbsolutePath());
            schemes.add(new BearerTokens(tokens));
            schemes.add(new ApiKeys(apiKeyHeader, tokens));
        }
        if (jwksUrl != null && jwtKey != null) {
            throw new IllegalArgumentException("set A2A_JWKS_URL or A2A_JWT_KEY, not both");
        }
        if (jwksUrl != null) {
            if (jwksUrl.getScheme() == null || !jwksUrl.getScheme().matches("https?")) {
                throw new IllegalArgumentException("A2A_JWKS_URL must be an http(s) URL, got " + jwksUrl);
            }
            schemes.add(JwtBearer.fromJwksUrl(jwksUrl, jwtIssuer, jwtAudience, JwtBearer.DEFAULT_REFETCH_INTERVAL));
        } else if (jwtKey != null) {
            schemes.add(JwtBearer.fromKeyFile(PublicKeyFile.read(jwtKey), jwtIssuer, jwtAudience));
        } else if (jwtIssuer != null) {
            // Neither keys nor where they are: the issuer's URL says, by OpenID Connect Discovery.
            schemes.add(JwtBearer.fromIssuerDiscovery(jwtIssuer, jwtAudience, JwtBearer.DEFAULT_REFETCH_INTERVAL));
        } else if (jwtAudience != null) {
            throw new IllegalArgumentException("A2A_JWT_AUDIENCE needs A2A_JWT_ISSUER (and, unless the issuer's keys are"
                    + " discovered from its URL, A2A_JWKS_URL or A2A_JWT_KEY)");
        }
        if (clientCrl != null && clientCa == null) {
            throw new IllegalArgumentException("A2A_CLIENT_CRL needs A2A_CLIENT_CA: the lists revoke certificates of"
                    + " the client authorities");
        }
        if (clientCa != null) {
            RevocationList revocations;
            try {
                revocations = clientCrl == null ? null : new RevocationList(clientCrl);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("A2A_CLIENT_CRL: " + e.getMessage());
            }
            try {
                schemes.add(new ClientCertificates(PemFile.read(clientCa).certificates(), revocations));
            } catch (PemException e) {
                throw new IllegalArgumentException("A2A_CLIENT_CA: " + e.getMessage());
            }
        }
        CallerAuthentication authentication = new CallerAuthentication(schemes);
        AgentCard extended = null;
        if (extendedCard != null) {
            if (!authentication.isEnabled()) {
                // PROTOCOL (A2A §3.1.11): the extended card is for callers authenticated with a scheme of the public card.
                throw new IllegalArgumentException("A2A_EXTENDED_CARD needs an authentication scheme"
                        + " (A2A_TOKENS_FILE, A2A_JWKS_URL, A2A_JWT_KEY or A2A_CLIENT_CA): it is for authenticated callers only");
            }
            extended = ServerSecurity.readExtendedCard(extendedCard);
        }
        return new ServerSecurity(authentication, extended, maxTasksPerPrincipal, maxStreamsPerPrincipal);
    }
}
