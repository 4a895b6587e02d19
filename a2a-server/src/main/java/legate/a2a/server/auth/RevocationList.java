package legate.a2a.server.auth;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.cert.CRL;
import java.security.cert.CRLException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.util.ArrayList;
import java.util.List;

/**
 * The certificate revocation lists (RFC 5280 §5) of the client authorities, from one file (PEM
 * {@code X509 CRL} blocks, or DER): a client certificate they list is refused in the TLS handshake,
 * and so is one the forwarding instance vouches for. An authority publishes a new list before its
 * {@code nextUpdate}, so the file is read again whenever it changes; a list past its
 * {@code nextUpdate} is no proof that a certificate is still good, and PKIX then refuses every
 * certificate of that authority, as it should.
 *
 * <p>Read at start, where a file that cannot be read stops the server; a later change that cannot
 * be read keeps the lists read before, so a half-written file never lets a revoked certificate in.
 */
public final class RevocationList {
    private final Path file;
    private volatile Loaded loaded;

    private record Loaded(FileTime modified, long size, List<X509CRL> lists) {
    }

    /**
     * Reads the file.
     *
     * @throws IllegalArgumentException naming the file and why it holds no usable list
     */
    public RevocationList(Path file) {
        this.file = file;
        try {
            this.loaded = read(file);
        } catch (IOException | CRLException | CertificateException e) {
            throw new IllegalArgumentException(file + ": no certificate revocation list can be read from it ("
                    + e.getMessage() + ")", e);
        }
        if (loaded.lists().isEmpty()) {
            throw new IllegalArgumentException(file + ": holds no certificate revocation list (PEM X509 CRL or DER)");
        }
    }

    /** The lists as the file holds them now (read again when it changed since the last look). */
    public List<X509CRL> current() {
        Loaded l = loaded;
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            long size = Files.size(file);
            if (!modified.equals(l.modified()) || size != l.size()) {
                Loaded fresh = read(file);
                if (!fresh.lists().isEmpty()) {
                    loaded = fresh;
                    return fresh.lists();
                }
            }
        } catch (IOException | CRLException | CertificateException e) {
            // Keep the lists read before: a file being replaced is read again at the next look.
        }
        return l.lists();
    }

    private static Loaded read(Path file) throws IOException, CRLException, CertificateException {
        FileTime modified = Files.getLastModifiedTime(file);
        long size = Files.size(file);
        List<X509CRL> lists = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (CRL crl : CertificateFactory.getInstance("X.509").generateCRLs(in)) {
                if (crl instanceof X509CRL x) {
                    lists.add(x);
                }
            }
        }
        return new Loaded(modified, size, List.copyOf(lists));
    }

    public Path file() {
        return file;
    }
}
