package legate.wire.pem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import legate.testsupport.TestPki;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Private keys as openssl writes them (PKCS#8, and the traditional PKCS#1 and SEC 1 forms) read,
 * with the public half each carries or implies. Here rather than in wire: the keys come from
 * openssl through test-support, which sits above wire.
 */
class PemFileTest {
    @TempDir
    static Path dir;
    private static TestPki pki;

    @BeforeAll
    static void pki() {
        pki = TestPki.create(dir);
    }

    @ParameterizedTest
    @CsvSource({"ec, false, EC", "ec, true, EC", "rsa, false, RSA", "rsa, true, RSA", "ed25519, false, EdDSA"})
    void privateKeysAreReadWithTheirPublicHalf(String kind, boolean traditional, String algorithm) throws Exception {
        Path key = pki.privateKey(kind + "-" + traditional, kind, traditional);
        PublicKey expected = PemFile.read(pki.publicKey(key, kind + "-" + traditional)).publicKey();

        PemFile file = PemFile.read(key);

        assertThat(Files.readString(key)).contains(traditional ? "BEGIN " + kind.toUpperCase() + " PRIVATE KEY" : "BEGIN PRIVATE KEY");
        assertThat(file.privateKey().getAlgorithm()).isIn(algorithm, "Ed25519");
        assertThat(file.publicKeyOfPrivateKey().getEncoded()).isEqualTo(expected.getEncoded());
    }

    @Test
    void anEncryptedKeyIsRefusedSayingHowToDecryptIt() throws Exception {
        Path key = dir.resolve("encrypted.key");
        Files.writeString(key, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n");

        assertThatThrownBy(() -> PemFile.read(key)).isInstanceOf(PemException.class)
                .hasMessageContaining("encrypted").hasMessageContaining("openssl pkey");
    }

    @Test
    void aFileWithoutPemIsRefusedNamingIt() throws Exception {
        Path key = dir.resolve("not-pem.key");
        Files.writeString(key, "hello");

        assertThatThrownBy(() -> PemFile.read(key)).isInstanceOf(PemException.class)
                .hasMessageContaining("not-pem.key").hasMessageContaining("not a PEM file");
    }

    @Test
    void aCertificateFileHasNoPrivateKey() throws Exception {
        assertThatThrownBy(() -> PemFile.read(pki.caCert()).privateKey()).isInstanceOf(PemException.class)
                .hasMessageContaining("holds no private key");
    }
}
