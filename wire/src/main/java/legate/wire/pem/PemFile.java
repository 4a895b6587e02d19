package legate.wire.pem;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.EdECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PEM file (RFC 7468): certificates, a private key or a public key, as openssl and keytool write
 * them. Private keys are read in PKCS#8 ({@code PRIVATE KEY}) and in the traditional forms openssl
 * still writes by default for some commands ({@code RSA PRIVATE KEY}, PKCS#1; {@code EC PRIVATE KEY},
 * SEC 1), RSA, EC and Ed25519; encrypted keys are refused with a message saying how to decrypt them.
 *
 * <p>Every failure is a {@link PemException} whose message names the file and what is wrong with it.
 */
public final class PemFile {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*(.*?)-----END \\1-----", Pattern.DOTALL);
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519"};
    private static final byte[] RSA_ENCRYPTION = oid(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01);
    private static final byte[] EC_PUBLIC_KEY = oid(0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01);

    /** One block of the file: its label and its DER bytes. */
    public record Block(String label, byte[] der) {
    }

    private final Path path;
    private final List<Block> blocks;

    private PemFile(Path path, List<Block> blocks) {
        this.path = path;
        this.blocks = blocks;
    }

    /** Reads every block of {@code path}; a file without any is refused. */
    public static PemFile read(Path path) throws PemException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            throw new PemException(path + ": cannot be read (" + e.getMessage() + ")");
        }
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            String body = m.group(2);
            if (body.contains("Proc-Type:") || m.group(1).startsWith("ENCRYPTED")) {
                throw new PemException(path + ": the key is encrypted; write it unencrypted "
                        + "(openssl pkey -in KEY -out PLAIN) and keep the file readable by this user only");
            }
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(body)));
            } catch (IllegalArgumentException e) {
                throw new PemException(path + ": the " + m.group(1) + " block is not valid base64");
            }
        }
        if (blocks.isEmpty()) {
            throw new PemException(path + ": not a PEM file (no -----BEGIN ...----- block)");
        }
        return new PemFile(path, List.copyOf(blocks));
    }

    public List<Block> blocks() {
        return blocks;
    }

    /** The certificates, in file order (a server's own first, then its chain); none is an error. */
    public List<X509Certificate> certificates() throws PemException {
        List<X509Certificate> certs = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Block b : blocks) {
                if (b.label().equals("CERTIFICATE")) {
                    certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der())));
                }
            }
        } catch (CertificateException e) {
            throw new PemException(path + ": a CERTIFICATE block is not an X.509 certificate (" + e.getMessage() + ")");
        }
        if (certs.isEmpty()) {
            throw new PemException(path + ": holds no CERTIFICATE block");
        }
        return certs;
    }

    /** The one private key of the file (RSA, EC or Ed25519; PKCS#8, PKCS#1 or SEC 1). */
    public PrivateKey privateKey() throws PemException {
        for (Block b : blocks) {
            byte[] pkcs8 = switch (b.label()) {
                case "PRIVATE KEY" -> b.der();
                case "RSA PRIVATE KEY" -> pkcs8(RSA_ENCRYPTION, null, b.der());
                case "EC PRIVATE KEY" -> pkcs8(EC_PUBLIC_KEY, sec1Curve(b.der()), b.der());
                default -> null;
            };
            if (pkcs8 != null) {
                for (String algorithm : KEY_ALGORITHMS) {
                    try {
                        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
                    } catch (GeneralSecurityException e) {
                        // not this algorithm: try the next
                    }
                }
                throw new PemException(path + ": the " + b.label() + " block is not an RSA, EC or Ed25519 key");
            }
        }
        throw new PemException(path + ": holds no private key (PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block)");
    }

    /** The one public key of the file (a PUBLIC KEY block, or the first certificate's key). */
    public PublicKey publicKey() throws PemException {
        for (Block b : blocks) {
            if (b.label().equals("PUBLIC KEY")) {
                for (String algorithm : KEY_ALGORITHMS) {
                    try {
                        return KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(b.der()));
                    } catch (GeneralSecurityException e) {
                        // not this algorithm: try the next
                    }
                }
                throw new PemException(path + ": the PUBLIC KEY block is not an RSA, EC or Ed25519 key");
            }
        }
        if (blocks.stream().anyMatch(b -> b.label().equals("CERTIFICATE"))) {
            return certificates().getFirst().getPublicKey();
        }
        throw new PemException(path + ": holds no PUBLIC KEY or CERTIFICATE block");
    }

    /**
     * The public half of {@link #privateKey()}: an RSA key's from its CRT form, an EC key's from the
     * public point SEC 1 lets the file carry (openssl always writes it), an Ed25519 key's derived
     * from its seed.
     */
    public PublicKey publicKeyOfPrivateKey() throws PemException {
        PrivateKey key = privateKey();
        try {
            if (key instanceof RSAPrivateCrtKey rsa) {
                return KeyFactory.getInstance("RSA").generatePublic(
                        new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
            }
            if (key instanceof ECPrivateKey ec) {
                return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(ecPublicPoint(ec), ec.getParams()));
            }
            if (key instanceof EdECPrivateKey ed && ed.getBytes().isPresent()) {
                // The JDK derives an Ed25519 key pair from exactly 32 random bytes, the seed (RFC 8032
                // §5.1.5), so a source that hands out the seed gives this key's public half.
                byte[] seed = ed.getBytes().get();
                KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
                generator.initialize(NamedParameterSpec.ED25519, new SecureRandom() {
                    @Override
                    public void nextBytes(byte[] bytes) {
                        System.arraycopy(seed, 0, bytes, 0, Math.min(seed.length, bytes.length));
                    }
                });
                return generator.generateKeyPair().getPublic();
            }
        } catch (GeneralSecurityException e) {
            throw new PemException(path + ": the public half of the key cannot be derived (" + e.getMessage() + ")");
        }
        throw new PemException(path + ": the public half of this " + key.getAlgorithm() + " key cannot be derived");
    }

    /** The uncompressed public point in the SEC 1 structure of the file's EC key ([1] publicKey). */
    private ECPoint ecPublicPoint(ECPrivateKey key) throws PemException {
        for (Block b : blocks) {
            byte[] sec1 = switch (b.label()) {
                case "EC PRIVATE KEY" -> b.der();
                case "PRIVATE KEY" -> {
                    Der.Tlv info = Der.read(b.der(), 0);
                    Der.Tlv version = Der.read(b.der(), info.contentStart());
                    Der.Tlv algorithm = Der.read(b.der(), version.end());
                    Der.Tlv octets = Der.read(b.der(), algorithm.end());
                    yield Arrays.copyOfRange(b.der(), octets.contentStart(), octets.end());
                }
                default -> null;
            };
            if (sec1 == null) {
                continue;
            }
            Der.Tlv seq = Der.read(sec1, 0);
            for (int at = seq.contentStart(); at < seq.end(); ) {
                Der.Tlv field = Der.read(sec1, at);
                if (field.tag() == 0xa1) {
                    Der.Tlv bits = Der.read(sec1, field.contentStart());
                    // BIT STRING: one byte of unused bits, then 04 || X || Y
                    int size = (key.getParams().getCurve().getField().getFieldSize() + 7) / 8;
                    int point = bits.contentStart() + 1;
                    if (sec1[point] != 0x04 || bits.end() - point != 1 + 2 * size) {
                        break;
                    }
                    return new ECPoint(new BigInteger(1, Arrays.copyOfRange(sec1, point + 1, point + 1 + size)),
                            new BigInteger(1, Arrays.copyOfRange(sec1, point + 1 + size, bits.end())));
                }
                at = field.end();
            }
        }
        throw new PemException(path + ": the EC key does not carry its public key; write it with openssl "
                + "(openssl pkey -in KEY -out KEY.pem)");
    }

    /** The named curve of a SEC 1 ECPrivateKey: the OID in its [0] parameters. */
    private byte[] sec1Curve(byte[] der) throws PemException {
        Der.Tlv seq = Der.read(der, 0);
        int at = seq.contentStart();
        while (at < seq.end()) {
            Der.Tlv field = Der.read(der, at);
            if (field.tag() == 0xa0) {
                Der.Tlv curve = Der.read(der, field.contentStart());
                byte[] oid = new byte[curve.end() - curve.start()];
                System.arraycopy(der, curve.start(), oid, 0, oid.length);
                return oid;
            }
            at = field.end();
        }
        throw new PemException(path + ": the EC PRIVATE KEY does not name its curve; write it as PKCS#8 "
                + "(openssl pkcs8 -topk8 -nocrypt)");
    }

    /** PKCS#8 PrivateKeyInfo wrapping a traditional key: version 0, the algorithm, the key as an OCTET STRING. */
    private static byte[] pkcs8(byte[] algorithmOid, byte[] parameters, byte[] key) {
        byte[] params = parameters != null ? parameters : new byte[] {0x05, 0x00};
        byte[] algorithm = Der.tlv(0x30, concat(algorithmOid, params));
        return Der.tlv(0x30, concat(new byte[] {0x02, 0x01, 0x00}, algorithm, Der.tlv(0x04, key)));
    }

    private static byte[] oid(int... content) {
        byte[] bytes = new byte[content.length];
        for (int i = 0; i < content.length; i++) {
            bytes[i] = (byte) content[i];
        }
        return Der.tlv(0x06, bytes);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
