package legate.a2a.server.auth;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.BiConsumer;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.http.HttpFields;

/**
 * A client certificate one instance of the agent verified, carried to the instance that runs the
 * conversation (README "Several instances"). A certificate authenticates the TLS connection it was
 * presented on, and a forwarded request arrives on another connection, from the forwarding
 * instance, so the receiving instance cannot see it. The forwarding instance therefore sends the
 * chain its handshake verified, and a proof that it did: an HMAC-SHA256 over the chain and the
 * time, keyed by a secret the instances share through their database ({@code InstanceGroup#peerKey}).
 *
 * <p>The receiving instance takes the chain as presented only when the request is marked forwarded,
 * the proof is right (compared in constant time) and fresh ({@link #MAX_AGE}, either way, for
 * clocks that disagree a little), and its own client authorities issued the chain: a caller that
 * sends these headers itself gains nothing, and each instance still decides whom it trusts. The
 * forwarding instance drops any such headers a caller sent before it adds its own.
 */
public final class ForwardedCertificates {
    /** The verified chain: each certificate's DER in base64, the client's own first, comma-separated. */
    public static final String CHAIN = "Legate-Client-Certificate";
    /** {@code <epoch seconds>:<base64url HMAC-SHA256>} over the chain header and the time. */
    public static final String PROOF = "Legate-Client-Certificate-Proof";
    /** How far a proof's time may be from the receiving instance's clock. */
    public static final Duration MAX_AGE = Duration.ofMinutes(2);
    private static final String ALGORITHM = "HmacSHA256";
    // PeerForwarding.FORWARDED, the mark of a forwarded request (that package depends on this one).
    private static final String FORWARDED = "Legate-Forwarded";
    private static final byte[] LABEL = "legate forwarded client certificate\n".getBytes(StandardCharsets.US_ASCII);

    private final SecretKeySpec key;
    private final Clock clock;
    private final ClientCertificateCheck check;

    /**
     * @param key the secret every instance on the database shares, at least 32 bytes
     * @param clock the time a proof carries and is checked against
     * @param check how this instance checks a client certificate; null: it takes none (no mutual TLS here)
     */
    public ForwardedCertificates(byte[] key, Clock clock, ClientCertificateCheck check) {
        if (key == null || key.length < 32) {
            throw new IllegalArgumentException("the instances' shared key must be at least 32 bytes");
        }
        this.key = new SecretKeySpec(key.clone(), ALGORITHM);
        this.clock = clock;
        this.check = check;
    }

    /** Adds the chain and its proof to a forwarded request, through {@code header}; nothing for an empty chain. */
    public void vouch(List<X509Certificate> chain, BiConsumer<String, String> header) {
        if (chain.isEmpty()) {
            return;
        }
        List<String> encoded = new ArrayList<>(chain.size());
        for (X509Certificate c : chain) {
            try {
                encoded.add(Base64.getEncoder().encodeToString(c.getEncoded()));
            } catch (CertificateEncodingException e) {
                // A certificate the handshake accepted always has an encoding; without one, vouch for nothing.
                return;
            }
        }
        String value = String.join(",", encoded);
        long seconds = clock.instant().getEpochSecond();
        header.accept(CHAIN, value);
        header.accept(PROOF, seconds + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(seconds, value)));
    }

    /**
     * The chain a peer vouched for on a forwarded request, once checked; empty when the request
     * carries none, or one that does not hold (not forwarded, a wrong or stale proof, a chain this
     * instance's own check refuses: another authority's, expired, revoked).
     */
    public List<X509Certificate> vouched(HttpFields headers) {
        String value = headers.get(CHAIN);
        String proof = headers.get(PROOF);
        if (value == null || proof == null || !headers.contains(FORWARDED) || check == null) {
            return List.of();
        }
        int colon = proof.indexOf(':');
        if (colon < 1) {
            return List.of();
        }
        long seconds;
        byte[] sent;
        try {
            seconds = Long.parseLong(proof.substring(0, colon));
            sent = Base64.getUrlDecoder().decode(proof.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return List.of();
        }
        if (Math.abs(clock.instant().getEpochSecond() - seconds) > MAX_AGE.toSeconds()
                || !MessageDigest.isEqual(mac(seconds, value), sent)) {
            return List.of();
        }
        List<X509Certificate> chain = decode(value);
        return !chain.isEmpty() && check.accepts(chain) ? chain : List.of();
    }

    private byte[] mac(long seconds, String chain) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update(LABEL);
            mac.update((seconds + "\n").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(chain.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }

    private static List<X509Certificate> decode(String value) {
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            List<X509Certificate> chain = new ArrayList<>();
            for (String part : value.split(",")) {
                chain.add((X509Certificate) x509.generateCertificate(
                        new ByteArrayInputStream(Base64.getDecoder().decode(part.strip()))));
            }
            return chain;
        } catch (CertificateException | IllegalArgumentException | ClassCastException e) {
            return List.of();
        }
    }
}
