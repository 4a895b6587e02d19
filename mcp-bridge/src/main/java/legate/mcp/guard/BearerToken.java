package legate.mcp.guard;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The secret a caller presents as {@code Authorization: Bearer <token>} on every MCP request.
 *
 * <p>Minted from a {@link SecureRandom} at start-up unless MCP_TOKEN pins it, compared in constant
 * time, and never printed by {@link #toString()}, so a logged config does not leak it.
 *
 * @param value the token as the caller sends it
 */
public record BearerToken(String value) {
    /** 32 random bytes: 256 bits, far beyond guessing over a network. */
    private static final int BYTES = 32;

    public BearerToken {
        if (value == null || value.isBlank() || !value.strip().equals(value) || value.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            throw new IllegalArgumentException("a bearer token is printable ASCII without spaces");
        }
    }

    /** A fresh token: 32 bytes from {@code random}, base64url without padding. */
    public static BearerToken mint(SecureRandom random) {
        byte[] bytes = new byte[BYTES];
        random.nextBytes(bytes);
        return new BearerToken(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /**
     * Whether {@code presented} is this token. MessageDigest.isEqual takes the same time whatever
     * the first differing byte, so the answer's timing does not reveal how much of a guess was right.
     */
    public boolean matches(String presented) {
        if (presented == null) {
            return false;
        }
        return MessageDigest.isEqual(value.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes the token to {@code file}, readable by its owner only (mode 600 where the file system
     * has POSIX permissions). The file is created afresh, so an older file's wider mode is not kept.
     */
    public void writeTo(Path file) throws IOException {
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        } catch (FileAlreadyExistsException e) {
            throw new IOException(file + " was created by someone else while it was being replaced", e);
        }
        Files.writeString(file, value + "\n", StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "BearerToken[redacted]";
    }
}
