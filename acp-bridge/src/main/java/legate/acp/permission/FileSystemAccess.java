package legate.acp.permission;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Serves {@code fs/read_text_file} and {@code fs/write_text_file} for one session, only inside its
 * {@link SessionRoot}. A path outside is an error ({@link PathOutsideRoot}), never a silent success.
 *
 * <p>Text is UTF-8 both ways; bytes that are not UTF-8 are read as U+FFFD rather than failing the
 * request. Files are opened through the resolved path without following a link at the last name, so
 * the file touched is the one the check approved. Thread-safe (no state besides the root).
 */
public final class FileSystemAccess {

    private final SessionRoot root;

    public FileSystemAccess(SessionRoot root) {
        this.root = Objects.requireNonNull(root, "root");
    }

    /** The root this access is confined to. */
    public SessionRoot root() {
        return root;
    }

    /**
     * The text of a file, or a window of its lines.
     * PROTOCOL (ACP fs/read_text_file): {@code line} is the 1-based line to start from and {@code limit}
     * the most lines to return. Lines keep their terminators as stored; a start past the end gives "".
     *
     * @param path absolute, or relative to the root
     * @param line the first line (1-based), or null for the start; values below 1 read as 1
     * @param limit the most lines, or null for all; values below 0 read as 0
     */
    public String readTextFile(String path, Integer line, Integer limit) throws PathOutsideRoot, IOException {
        Path target = root.resolve(path);
        String text;
        try (InputStream in = Files.newInputStream(target, LinkOption.NOFOLLOW_LINKS)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (line == null && limit == null) {
            return text;
        }
        int first = line == null ? 1 : Math.max(1, line);
        long count = limit == null ? Long.MAX_VALUE : Math.max(0, limit);
        int start = offsetOfLine(text, first);
        if (start < 0 || count == 0) {
            return "";
        }
        int end = start;
        for (long taken = 0; taken < count && end < text.length(); taken++) {
            int newline = text.indexOf('\n', end);
            end = newline < 0 ? text.length() : newline + 1;
        }
        return text.substring(start, end);
    }

    /**
     * Writes a whole file, creating it and its missing parent directories inside the root, replacing
     * what was there.
     * PROTOCOL (ACP fs/write_text_file): the result is null; the content replaces the file.
     *
     * @param path absolute, or relative to the root
     * @param content the new text (UTF-8)
     * @throws IllegalArgumentException if content is null (a missing field must not empty a file)
     */
    public void writeTextFile(String path, String content) throws PathOutsideRoot, IOException {
        if (content == null) {
            throw new IllegalArgumentException("fs/write_text_file needs content");
        }
        Path target = root.resolve(path);
        Path parent = target.getParent();
        if (parent != null) {
            // The missing part of target holds no link (resolve took it lexically), so this stays inside.
            Files.createDirectories(parent);
        }
        Files.writeString(target, content, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    }

    /** The offset where a 1-based line starts, or -1 when the text has fewer lines. */
    private static int offsetOfLine(String text, int line) {
        int offset = 0;
        for (int i = 1; i < line; i++) {
            int newline = text.indexOf('\n', offset);
            if (newline < 0 || newline + 1 >= text.length()) {
                return -1;
            }
            offset = newline + 1;
        }
        return text.isEmpty() ? -1 : offset;
    }
}
