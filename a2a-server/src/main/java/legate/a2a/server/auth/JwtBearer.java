package legate.a2a.server.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.net.MalformedURLException;
import java.net.URI;
import java.security.Key;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import legate.a2a.server.Principal;
import lf.a2a.v1.HTTPAuthSecurityScheme;
import lf.a2a.v1.OpenIdConnectSecurityScheme;
import lf.a2a.v1.SecurityScheme;
import org.eclipse.jetty.http.HttpFields;

/**
 * JWT access tokens (OAuth 2 / OIDC, RFC 9068) as bearer credentials: the signature checked
 * against the issuer's keys ({@code A2A_JWKS_URL}, a key file {@code A2A_JWT_KEY}, or found by
 * OpenID Connect Discovery from the issuer's URL), {@code iss}
 * and {@code aud} required to be the configured ones, {@code exp} and {@code nbf} with
 * {@link #CLOCK_SKEW} of tolerance; the principal is {@code sub}. The card declares an HTTP
 * {@code Bearer} scheme with {@code bearerFormat: JWT}, named {@value #NAME}.
 *
 * <p>Only asymmetric signatures are accepted (RS*, PS*, ES*): an unsigned token ({@code alg: none})
 * and an HMAC one are refused, so no key published for verification can be used to forge. A token
 * whose {@code kid} is not among the keys fetched makes the JWKS be fetched again (at most once per
 * {@code refetchInterval}), which is how the issuer's key rotation reaches this server.
 */
public final class JwtBearer implements CredentialScheme {
    public static final String NAME = "jwt";
    /** Tolerance for clocks that disagree a little on exp and nbf. */
    public static final Duration CLOCK_SKEW = Duration.ofSeconds(60);
    /** The least time between two fetches of the JWKS that an unknown kid may cause. */
    public static final Duration DEFAULT_REFETCH_INTERVAL = Duration.ofSeconds(30);

    /** How the card declares JWTs whose keys the operator named: an HTTP Bearer scheme of format JWT. */
    private static final SecurityScheme BEARER_JWT = SecurityScheme.newBuilder().setHttpAuthSecurityScheme(
            HTTPAuthSecurityScheme.newBuilder().setScheme("Bearer").setBearerFormat("JWT")
                    .setDescription("An access token (JWT) from this agent's identity provider, sent as"
                            + " Authorization: Bearer <token>.")).build();

    private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(
            JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512,
            JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);

    private final DefaultJWTProcessor<SecurityContext> processor;
    private final SecurityScheme declaration;

    private JwtBearer(JWSKeySelector<SecurityContext> keys, String issuer, String audience, SecurityScheme declaration) {
        this.declaration = declaration;
        if (issuer == null || issuer.isBlank() || audience == null || audience.isBlank()) {
            // Without both, a token the same issuer minted for another service would be accepted here.
            throw new IllegalArgumentException("JWT bearer tokens need both A2A_JWT_ISSUER and A2A_JWT_AUDIENCE");
        }
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        // RFC 9068 access tokens are typed at+jwt; plain JWTs carry JWT or no typ.
        p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null));
        p.setJWSKeySelector(keys);
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(Set.of(audience),
                new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("sub", "exp", "iss", "aud"), null);
        claims.setMaxClockSkew((int) CLOCK_SKEW.toSeconds());
        p.setJWTClaimsSetVerifier(claims);
        this.processor = p;
    }

    /**
     * Keys fetched from a JWKS URL, cached for five minutes, fetched again on an unknown kid at most
     * once per {@code refetchInterval} (shorter than the five minutes; zero: no limit, for tests).
     */
    public static JwtBearer fromJwksUrl(URI jwksUrl, String issuer, String audience, Duration refetchInterval) {
        JWKSource<SecurityContext> keys;
        try {
            keys = jwks(jwksUrl, refetchInterval);
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("A2A_JWKS_URL is not a URL: " + jwksUrl);
        }
        return new JwtBearer(new JWSVerificationKeySelector<>(ALGORITHMS, keys), issuer, audience, BEARER_JWT);
    }

    /**
     * Keys of the issuer named by URL, found by OpenID Connect Discovery ({@link IssuerDiscovery}):
     * its configuration document names the JWKS, which is then used as {@link #fromJwksUrl} uses
     * one. The card declares the scheme as OpenID Connect, naming that document, so a client knows
     * where to obtain tokens.
     *
     * @throws IllegalArgumentException when the issuer is not an http(s) URL
     */
    public static JwtBearer fromIssuerDiscovery(String issuer, String audience, Duration refetchInterval) {
        IssuerDiscovery discovery = new IssuerDiscovery(issuer, refetchInterval, jwksUri -> {
            try {
                return jwks(jwksUri, refetchInterval);
            } catch (MalformedURLException | IllegalArgumentException e) {
                throw new IllegalArgumentException("jwks_uri is not a URL: " + jwksUri, e);
            }
        });
        SecurityScheme oidc = SecurityScheme.newBuilder().setOpenIdConnectSecurityScheme(OpenIdConnectSecurityScheme
                .newBuilder().setOpenIdConnectUrl(discovery.document().toString())
                .setDescription("An access token (JWT) from this agent's OpenID Connect provider, sent as"
                        + " Authorization: Bearer <token>.")).build();
        return new JwtBearer(new JWSVerificationKeySelector<>(ALGORITHMS, discovery), issuer, audience, oidc);
    }

    /** A JWKS read from {@code url}, cached, fetched again on an unknown kid at most once per {@code refetchInterval}. */
    private static JWKSource<SecurityContext> jwks(URI url, Duration refetchInterval) throws MalformedURLException {
        JWKSourceBuilder<SecurityContext> builder = JWKSourceBuilder.create(url.toURL());
        builder = refetchInterval.isZero() ? builder.rateLimited(false) : builder.rateLimited(refetchInterval.toMillis());
        return builder.retrying(false).build();
    }

    /**
     * Keys from a file: a PEM public key (RSA or EC) or a JWKS document. A key without a kid (a PEM
     * key has none) verifies tokens whatever kid they name; a key with one, only tokens naming it.
     */
    public static JwtBearer fromKeyFile(PublicKeyFile keys, String issuer, String audience) {
        return new JwtBearer(fixedKeys(keys.jwks()), issuer, audience, BEARER_JWT);
    }

    private static JWSKeySelector<SecurityContext> fixedKeys(List<JWK> jwks) {
        return (header, context) -> {
            JWSAlgorithm alg = header.getAlgorithm();
            List<Key> out = new ArrayList<>();
            if (!ALGORITHMS.contains(alg)) {
                return out;
            }
            for (JWK k : jwks) {
                if (k.getKeyID() != null && !k.getKeyID().equals(header.getKeyID())) {
                    continue;
                }
                try {
                    if (k instanceof RSAKey rsa && JWSAlgorithm.Family.RSA.contains(alg)) {
                        out.add(rsa.toPublicKey());
                    } else if (k instanceof ECKey ec && JWSAlgorithm.Family.EC.contains(alg)) {
                        out.add(ec.toPublicKey());
                    }
                } catch (JOSEException e) {
                    throw new KeySourceException("A2A_JWT_KEY holds a key that cannot be used: " + e.getMessage(), e);
                }
            }
            return out;
        };
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SecurityScheme declaration() {
        return declaration;
    }

    @Override
    public String challenge() {
        return "Bearer realm=\"a2a\"";
    }

    @Override
    public Verdict verify(Presented presented) {
        HttpFields headers = presented.headers();
        String token = BearerCredential.of(headers);
        if (token == null) {
            return new Verdict.Absent();
        }
        try {
            JWTClaimsSet claims = processor.process(token, null);
            String subject = claims.getSubject();
            if (subject == null || subject.isEmpty() || subject.chars().anyMatch(Character::isISOControl)) {
                return new Verdict.Refused("a JWT without a usable sub");
            }
            return new Verdict.Accepted(new Principal.Named(subject));
        } catch (ParseException e) {
            return new Verdict.Refused("a bearer token that is not a JWT");
        } catch (BadJOSEException e) {
            return new Verdict.Refused("a JWT refused: " + e.getMessage());
        } catch (JOSEException e) {
            return new Verdict.Refused("a JWT that could not be checked: " + e.getMessage());
        }
    }
}
