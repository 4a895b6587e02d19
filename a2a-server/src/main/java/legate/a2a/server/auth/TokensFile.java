package legate.a2a.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import legate.a2a.server.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The callers' secrets ({@code A2A_TOKENS_FILE}): one {@code principal:token} or
 * {@code principal:sha256:<64 hex digits>} per line; blank lines and lines starting with {@code #}
 * are skipped. Both the bearer scheme and the API-key scheme accept its entries.
 *
 * <p>A presented secret is hashed with SHA-256 and compared with every entry's hash in constant time
 * ({@link MessageDigest#isEqual}), all entries every time, so neither the answer's timing nor its
 * content says how close a guess came or which entry exists.
 *
 * <p>The file is re-read when it changes: each check compares its modification time, size and file
 * key with the loaded copy's (one {@code stat}, no thread). A file that is deleted leaves no entry
 * (every secret refused until it is back); a file that no longer parses keeps the entries last read
 * and logs the line number that failed, never its content.
 */
public final class TokensFile {
    private static final Logger LOG = LoggerFactory.getLogger(TokensFile.class);
    private static final String HASHED = "sha256:";

    private record Entry(Principal principal, byte[] digest) {
    }

    /** What was read, and the file's attributes when it was read. */
    private record Loaded(FileTime modified, long size, Object key, List<Entry> entries) {
        boolean sameFile(BasicFileAttributes a) {
            return a != null && modified.equals(a.lastModifiedTime()) && size == a.size() && Objects.equals(key, a.fileKey());
        }
    }

    private static final Loaded NONE = new Loaded(FileTime.fromMillis(0), -1, null, List.of());

    private final Path path;
    private volatile Loaded loaded;

    /**
     * Reads the file once.
     *
     * @throws IllegalArgumentException when it cannot be read or a line is malformed (the message
     *                                  names the line, never a secret)
     */
    public TokensFile(Path path) {
        this.path = path;
        try {
            this.loaded = read();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the tokens file " + path + ": " + e.getMessage());
        }
        if (loaded.entries().isEmpty()) {
            throw new IllegalArgumentException("the tokens file " + path + " holds no entry (principal:token)");
        }
    }

    public Path path() {
        return path;
    }

    /** The principal whose secret {@code presented} is, if any. */
    public Optional<Principal> match(String presented) {
        byte[] digest = sha256(presented.getBytes(StandardCharsets.UTF_8));
        Principal found = null;
        for (Entry e : current().entries()) {
            // Every entry is compared, whatever matched before: the time taken does not depend on which.
            if (MessageDigest.isEqual(digest, e.digest()) && found == null) {
                found = e.principal();
            }
        }
        return Optional.ofNullable(found);
    }

    private Loaded current() {
        Loaded now = loaded;
        BasicFileAttributes attributes = attributes();
        if (now.sameFile(attributes)) {
            return now;
        }
        synchronized (this) {
            now = loaded;
            if (attributes == null) {
                if (now != NONE) {
                    LOG.warn("the tokens file {} is gone: every token and API key is refused until it is back", path);
                    loaded = NONE;
                }
                return NONE;
            }
            if (now.sameFile(attributes)) {
                return now;
            }
            try {
                Loaded fresh = read();
                loaded = fresh;
                LOG.info("re-read the tokens file {}: {} entries", path, fresh.entries().size());
                return fresh;
            } catch (IOException | IllegalArgumentException e) {
                LOG.warn("the tokens file {} changed but cannot be used ({}); keeping the entries read before", path,
                        e.getMessage());
                // Remembered as read, so a broken file is reported once, not on every request.
                loaded = new Loaded(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey(), now.entries());
                return loaded;
            }
        }
    }

    private BasicFileAttributes attributes() {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            // Gone (NoSuchFileException) or unreadable: either way no secret can be checked against it.
            return null;
        }
    }

    private Loaded read() throws IOException {
        BasicFileAttributes before = Files.readAttributes(path, BasicFileAttributes.class);
        List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            entries.add(entry(line, i + 1));
        }
        return new Loaded(before.lastModifiedTime(), before.size(), before.fileKey(), List.copyOf(entries));
    }

    private Entry entry(String line, int number) {
        int colon = line.indexOf(':');
        if (colon <= 0 || colon == line.length() - 1) {
            throw new IllegalArgumentException("line " + number + " of " + path
                    + " is not principal:token or principal:sha256:<hex>");
        }
        String name = line.substring(0, colon).strip();
        if (name.isEmpty() || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("line " + number + " of " + path + ": the principal's name is empty"
                    + " or holds a control character");
        }
        Principal principal = new Principal.Named(name);
        String secret = line.substring(colon + 1).strip();
        if (secret.startsWith(HASHED)) {
            String hex = secret.substring(HASHED.length());
            if (hex.length() != 64 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                throw new IllegalArgumentException("line " + number + " of " + path
                        + ": a sha256: entry needs the 64 hex digits of the token's SHA-256");
            }
            return new Entry(principal, HexFormat.of().parseHex(hex));
        }
        return new Entry(principal, sha256(secret.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
