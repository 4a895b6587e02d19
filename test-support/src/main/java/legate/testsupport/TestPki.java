package legate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate authority made for one test, with openssl as a child process: a CA, a server
 * certificate for {@code localhost}, {@code 127.0.0.1} and {@code ::1} signed by it, client
 * certificates for mutual TLS, and private keys of each kind and PEM form a Legate key setting accepts. Nothing is trusted beyond the test.
 * A missing openssl fails the test, naming it.
 */
public final class TestPki {
    private static final Duration STEP = Duration.ofSeconds(60);

    private final Path dir;

    private TestPki(Path dir) {
        this.dir = dir;
    }

    /** A new CA and a server certificate under {@code dir}. */
    public static TestPki create(Path dir) {
        TestPki pki = new TestPki(dir);
        pki.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Legate Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        pki.openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "server.key");
        pki.openssl("req", "-new", "-key", "server.key", "-subj", "/CN=localhost", "-out", "server.csr");
        pki.write("server.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n"
                + "extendedKeyUsage=serverAuth\n");
        pki.openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-extfile", "server.ext", "-out", "server.pem");
        pki.write("chain.pem", pki.read("server.pem") + pki.read("ca.pem"));
        return pki;
    }

    /** The CA's certificate (PEM): what a client is told to trust. */
    public Path caCert() {
        return dir.resolve("ca.pem");
    }

    /** The server's certificate followed by the CA's: a chain as a server is configured with it. */
    public Path serverChain() {
        return dir.resolve("chain.pem");
    }

    /** The server's private key, PKCS#8. */
    public Path serverKey() {
        return dir.resolve("server.key");
    }

    /** A certificate's file (PEM) and its private key's (PKCS#8), as a client is configured with them. */
    public record CertificateFiles(Path certificate, Path key) {
    }

    /**
     * A client certificate for mutual TLS, signed by this CA: subject {@code CN=commonName}, extended
     * key usage clientAuth, an EC P-256 key; its files named after {@code name}.
     */
    public CertificateFiles clientCertificate(String name, String commonName) {
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", name + ".key");
        openssl("req", "-new", "-key", name + ".key", "-subj", "/CN=" + commonName, "-out", name + ".csr");
        write(name + ".ext", "extendedKeyUsage=clientAuth\n");
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-extfile", name + ".ext", "-out", name + ".pem");
        return new CertificateFiles(dir.resolve(name + ".pem"), dir.resolve(name + ".key"));
    }

    /**
     * Revokes {@code certificate} in this CA's records (openssl ca), then writes the CA's
     * certificate revocation list again; the list's path.
     */
    public Path revoke(CertificateFiles certificate) {
        caRecords();
        openssl("ca", "-config", "ca.cnf", "-revoke", certificate.certificate().toString(), "-keyfile", "ca.key",
                "-cert", "ca.pem");
        return revocationList();
    }

    /**
     * The CA's certificate revocation list (PEM), valid for 2 days unless {@code options} (openssl
     * ca's, such as {@code -crl_nextupdate}) say otherwise, naming what was revoked so far.
     */
    public Path revocationList(String... options) {
        caRecords();
        List<String> argv = new ArrayList<>(List.of("ca", "-config", "ca.cnf", "-gencrl", "-keyfile", "ca.key",
                "-cert", "ca.pem", "-out", "crl.pem"));
        argv.addAll(List.of(options));
        openssl(argv.toArray(String[]::new));
        return dir.resolve("crl.pem");
    }

    /** The files openssl ca keeps its records in, made once. */
    private void caRecords() {
        if (!Files.exists(dir.resolve("ca.cnf"))) {
            write("ca.cnf", "[ ca ]\ndefault_ca = test\n[ test ]\ndatabase = index.txt\ncrlnumber = crlnumber\n"
                    + "default_md = sha256\ndefault_crl_days = 2\n");
            write("index.txt", "");
            write("crlnumber", "01\n");
        }
    }

    /**
     * A client's TLS context: trusts this CA for the server, and presents {@code identity}'s
     * certificate to a server that asks for one (none when null). The pair goes through a PKCS#12
     * file openssl writes, so the JDK reads it as it is.
     */
    public SSLContext clientContext(CertificateFiles identity) {
        try {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            try (InputStream in = Files.newInputStream(caCert())) {
                trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            KeyManagerFactory keys = null;
            if (identity != null) {
                Path p12 = dir.resolve(identity.certificate().getFileName() + ".p12");
                openssl("pkcs12", "-export", "-in", identity.certificate().toString(), "-inkey", identity.key().toString(),
                        "-out", p12.toString(), "-passout", "pass:pw");
                KeyStore store = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(p12)) {
                    store.load(in, "pw".toCharArray());
                }
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(store, "pw".toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the test certificates cannot be used: " + e.getMessage(), e);
        }
    }

    /**
     * A new private key in a file of its own: {@code kind} is {@code ec} (P-256), {@code rsa} (2048
     * bits) or {@code ed25519}; {@code traditional} writes the PKCS#1 or SEC 1 form openssl's older
     * commands write instead of PKCS#8.
     */
    public Path privateKey(String name, String kind, boolean traditional) {
        String file = traditional ? name + ".pkcs8.key" : name + ".key";
        switch (kind) {
            case "ec" -> openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file);
            case "rsa" -> openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", file);
            case "ed25519" -> openssl("genpkey", "-algorithm", "ed25519", "-out", file);
            default -> throw new IllegalArgumentException("unknown key kind " + kind);
        }
        if (traditional) {
            openssl("pkey", "-in", file, "-traditional", "-out", name + ".key");
        }
        return dir.resolve(name + ".key");
    }

    /** The public key of a private key file, as a PEM {@code PUBLIC KEY}. */
    public Path publicKey(Path privateKey, String name) {
        String file = name + ".pub.pem";
        openssl("pkey", "-in", privateKey.toString(), "-pubout", "-out", file);
        return dir.resolve(file);
    }

    private void openssl(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "openssl";
        System.arraycopy(args, 0, argv, 1, args.length);
        ChildRun run = ChildCommand.of(argv).in(dir).run(STEP);
        assertThat(run.exitCode()).as("openssl %s: %s", args[0], run.output()).isZero();
    }

    private void write(String name, String text) {
        try {
            Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String read(String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
