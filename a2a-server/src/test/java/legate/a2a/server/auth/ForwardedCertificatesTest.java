package legate.a2a.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import legate.testsupport.TestPki;
import legate.wire.pem.PemFile;
import org.eclipse.jetty.http.HttpFields;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What makes a forwarded client certificate count (README "Several instances"): a request marked
 * forwarded, a proof made with the instances' key within {@link ForwardedCertificates#MAX_AGE},
 * and a chain this instance's own client authorities issued. Certificates made by openssl.
 */
class ForwardedCertificatesTest {
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes();
    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");
    @TempDir
    static Path dir;
    private static List<X509Certificate> authorities;
    private static List<X509Certificate> alice;
    private static List<X509Certificate> bob;
    private static TestPki pki;
    private static List<X509Certificate> foreign;

    @BeforeAll
    static void pki() throws Exception {
        pki = TestPki.create(Files.createDirectories(dir.resolve("ca")));
        authorities = PemFile.read(pki.caCert()).certificates();
        alice = PemFile.read(pki.clientCertificate("alice", "alice").certificate()).certificates();
        bob = PemFile.read(pki.clientCertificate("bob", "bob").certificate()).certificates();
        foreign = PemFile.read(TestPki.create(Files.createDirectories(dir.resolve("other")))
                .clientCertificate("alice", "alice").certificate()).certificates();
    }

    private static ForwardedCertificates at(Instant when) {
        return new ForwardedCertificates(KEY, Clock.fixed(when, ZoneOffset.UTC), new ClientCertificateCheck(authorities, null));
    }

    private static HttpFields.Mutable vouched(ForwardedCertificates by, List<X509Certificate> chain, boolean forwarded) {
        HttpFields.Mutable headers = HttpFields.build();
        if (forwarded) {
            headers.add("Legate-Forwarded", "1");
        }
        by.vouch(chain, headers::add);
        return headers;
    }

    @Test
    void aChainVouchedForWithTheKeyOnAForwardedRequestIsTaken() {
        // The clocks of two instances may differ a little: a minute either way still holds.
        assertThat(at(NOW.plusSeconds(60)).vouched(vouched(at(NOW), alice, true)))
                .extracting(X509Certificate::getSubjectX500Principal).containsExactly(alice.getFirst().getSubjectX500Principal());
    }

    @Test
    void aProofOlderThanTheLimitIsNot() {
        assertThat(at(NOW.plus(ForwardedCertificates.MAX_AGE).plusSeconds(1)).vouched(vouched(at(NOW), alice, true))).isEmpty();
    }

    @Test
    void aRequestNotMarkedForwardedIsNot() {
        assertThat(at(NOW).vouched(vouched(at(NOW), alice, false))).isEmpty();
    }

    // Each instance decides whom it trusts: a chain its authorities did not issue is refused even with a right proof.
    @Test
    void aChainThisInstancesAuthoritiesDidNotIssueIsNot() {
        assertThat(at(NOW).vouched(vouched(at(NOW), foreign, true))).isEmpty();
    }

    // The proof covers the chain: bob's chain, which the authorities did issue, under alice's proof is refused.
    @Test
    void aChainChangedAfterItsProofIsNot() {
        HttpFields.Mutable swapped = HttpFields.build();
        swapped.add("Legate-Forwarded", "1");
        swapped.add(ForwardedCertificates.CHAIN, vouched(at(NOW), bob, true).get(ForwardedCertificates.CHAIN));
        swapped.add(ForwardedCertificates.PROOF, vouched(at(NOW), alice, true).get(ForwardedCertificates.PROOF));
        assertThat(at(NOW).vouched(swapped)).isEmpty();
        assertThat(at(NOW).vouched(vouched(at(NOW), bob, true))).hasSize(1);
    }

    // A2A_CLIENT_CRL: a certificate its authority revoked is refused when vouched for, as in a handshake.
    @Test
    void aRevokedChainIsNot() throws Exception {
        TestPki.CertificateFiles mallory = pki.clientCertificate("mallory", "mallory");
        RevocationList revoked = new RevocationList(pki.revoke(mallory));
        ForwardedCertificates checking = new ForwardedCertificates(KEY, Clock.fixed(NOW, ZoneOffset.UTC),
                new ClientCertificateCheck(authorities, revoked));
        List<X509Certificate> chain = PemFile.read(mallory.certificate()).certificates();

        assertThat(checking.vouched(vouched(checking, chain, true))).isEmpty();
        assertThat(checking.vouched(vouched(checking, alice, true))).hasSize(1);
    }

    @Test
    void aShortKeyIsRefused() {
        assertThatThrownBy(() -> new ForwardedCertificates(new byte[16], Clock.systemUTC(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("32 bytes");
    }
}
