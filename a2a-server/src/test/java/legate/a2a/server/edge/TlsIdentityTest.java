package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import legate.testsupport.TestPki;
import legate.wire.pem.PemException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bad TLS_CERT/TLS_KEY pair is refused when read, with a sentence naming the file and the fault. */
class TlsIdentityTest {
    @TempDir
    static Path dir;
    private static TestPki pki;

    @BeforeAll
    static void pki() {
        pki = TestPki.create(dir);
    }

    @Test
    void theChainIsReadInOrderWithItsKey() throws Exception {
        TlsIdentity identity = TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now());

        assertThat(identity.chain()).hasSize(2);
        assertThat(identity.chain().get(0).getSubjectX500Principal().getName()).isEqualTo("CN=localhost");
        assertThat(identity.chain().get(1).getSubjectX500Principal().getName()).isEqualTo("CN=Legate Test CA");
    }

    @Test
    void aKeyOfAnotherCertificateIsRefused() {
        Path other = pki.privateKey("other", "ec", false);

        assertThatThrownBy(() -> TlsIdentity.read(pki.serverChain(), other, Instant.now()))
                .isInstanceOf(PemException.class)
                .hasMessageContaining(other.toString()).hasMessageContaining("does not belong to the first certificate");
    }

    @Test
    void anExpiredCertificateIsRefused() {
        assertThatThrownBy(() -> TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now().plus(Duration.ofDays(30))))
                .isInstanceOf(PemException.class).hasMessageContaining("expired on");
    }

    @Test
    void aKeyFileInPlaceOfTheCertificateIsRefused() {
        assertThatThrownBy(() -> TlsIdentity.read(pki.serverKey(), pki.serverKey(), Instant.now()))
                .isInstanceOf(PemException.class).hasMessageContaining("holds no CERTIFICATE block");
    }

    @Test
    void aMissingFileIsRefusedNamingIt() throws Exception {
        Path missing = dir.resolve("missing.pem");
        Files.deleteIfExists(missing);

        assertThatThrownBy(() -> TlsIdentity.read(missing, pki.serverKey(), Instant.now()))
                .isInstanceOf(PemException.class).hasMessageContaining("missing.pem").hasMessageContaining("cannot be read");
    }
}
