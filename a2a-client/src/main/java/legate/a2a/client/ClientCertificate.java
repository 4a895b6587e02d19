package legate.a2a.client;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import legate.wire.pem.KeyPairs;
import legate.wire.pem.PemException;
import legate.wire.pem.PemFile;

/**
 * The certificate a client presents in the TLS handshake to an agent that authenticates callers
 * with mutual TLS (A2A §7, a card's {@code mtlsSecurityScheme}): its chain, its own certificate
 * first, and that certificate's private key, read from PEM files as a CA hands them out.
 */
public record ClientCertificate(List<X509Certificate> chain, PrivateKey key) {
    public ClientCertificate {
        chain = List.copyOf(chain);
    }

    /**
     * Reads the chain from {@code certFile} and the key from {@code keyFile} (PKCS#8, or traditional RSA or EC).
     *
     * @throws PemException naming the file, or that the key is not the certificate's
     */
    public static ClientCertificate read(Path certFile, Path keyFile) throws PemException {
        List<X509Certificate> chain = PemFile.read(certFile).certificates();
        PrivateKey key = PemFile.read(keyFile).privateKey();
        if (!KeyPairs.belongTogether(key, chain.getFirst().getPublicKey())) {
            throw new PemException(keyFile + ": this key does not belong to the first certificate in " + certFile
                    + " (" + chain.getFirst().getSubjectX500Principal().getName() + ")");
        }
        return new ClientCertificate(chain, key);
    }

    /** The key managers that present this certificate when a server asks for one. */
    KeyManager[] keyManagers() throws GeneralSecurityException, IOException {
        // The key lives in memory only; the password guards nothing but the in-memory store's format.
        char[] password = "legate".toCharArray();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("client", key, password, chain.toArray(new X509Certificate[0]));
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        return factory.getKeyManagers();
    }
}
