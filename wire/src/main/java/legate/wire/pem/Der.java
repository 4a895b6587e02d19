package legate.wire.pem;

import java.io.ByteArrayOutputStream;

/**
 * The few DER (ITU-T X.690) steps that turning a traditional private key into PKCS#8 needs: read one
 * tag-length-value, write one. Not a general ASN.1 codec.
 */
final class Der {
    private Der() {
    }

    /** One element: its tag, where it starts, where its content starts, where it ends. */
    record Tlv(int tag, int start, int contentStart, int end) {
    }

    static Tlv read(byte[] der, int at) throws PemException {
        if (at + 2 > der.length) {
            throw new PemException("the key's DER encoding is cut short");
        }
        int tag = der[at] & 0xff;
        int length = der[at + 1] & 0xff;
        int content = at + 2;
        if (length >= 0x80) {
            int octets = length & 0x7f;
            if (octets == 0 || octets > 3 || content + octets > der.length) {
                throw new PemException("the key's DER encoding has a bad length");
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = (length << 8) | (der[content + i] & 0xff);
            }
            content += octets;
        }
        if (content + length > der.length) {
            throw new PemException("the key's DER encoding is cut short");
        }
        return new Tlv(tag, at, content, content + length);
    }

    static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else if (n < 0x10000) {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        } else {
            out.write(0x83);
            out.write(n >> 16);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }
}
