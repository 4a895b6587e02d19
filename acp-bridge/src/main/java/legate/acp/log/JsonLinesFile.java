package legate.acp.log;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.BiConsumer;

/**
 * One JSON Lines log file rotated by size: the live {@code <name>} and the older {@code <name>.1}
 * (newest) to {@code <name>.<maxFiles-1>} (oldest); the oldest is dropped.
 *
 * <p>Rotation happens before a write that would take the live file past {@code maxBytes}, so a record
 * is never split across files; a record larger than {@code maxBytes} gets a file of its own. A failed
 * write is handed to {@code failures} and never thrown; a write cut short is truncated away, and the
 * next write opens the file again, so the log recovers when the disk does. Writes are serialised on
 * this object. One instance per file: two writers on the same file would miscount its size.
 */
final class JsonLinesFile {

    private final Path dir;
    private final String name;
    private final long maxBytes;
    private final int maxFiles;
    private final BiConsumer<Path, Exception> failures;
    // A FileOutputStream, not a FileChannel: an interrupted thread closes a FileChannel under every writer.
    private FileOutputStream out;
    private long size;
    private boolean closed;

    JsonLinesFile(Path dir, String name, long maxBytes, int maxFiles, BiConsumer<Path, Exception> failures) {
        this.dir = dir;
        this.name = name;
        this.maxBytes = maxBytes;
        this.maxFiles = maxFiles;
        this.failures = failures;
    }

    Path live() {
        return dir.resolve(name);
    }

    /** Appends one whole record; {@code line} ends with a newline. */
    synchronized void append(byte[] line) {
        if (closed) {
            return;
        }
        try {
            if (out == null) {
                open();
            }
            if (size > 0 && size + line.length > maxBytes) {
                rotate();
            }
            write(line);
        } catch (IOException | RuntimeException e) {
            closeQuietly();
            failures.accept(live(), e);
        }
    }

    synchronized void close() {
        closed = true;
        closeQuietly();
    }

    private void open() throws IOException {
        Files.createDirectories(dir);
        out = new FileOutputStream(live().toFile(), true);
        size = out.getChannel().size();
    }

    private void rotate() throws IOException {
        closeQuietly();
        Files.deleteIfExists(dir.resolve(name + "." + (maxFiles - 1)));
        for (int i = maxFiles - 2; i >= 1; i--) {
            Path older = dir.resolve(name + "." + i);
            if (Files.exists(older)) {
                Files.move(older, dir.resolve(name + "." + (i + 1)), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (maxFiles > 1) {
            Files.move(live(), dir.resolve(name + ".1"), StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.deleteIfExists(live());
        }
        open();
    }

    private void write(byte[] line) throws IOException {
        try {
            out.write(line);
            size += line.length;
        } catch (IOException e) {
            try {
                out.getChannel().truncate(size);
            } catch (IOException | RuntimeException ignored) {
                // The write failed already; that is what gets reported.
            }
            throw e;
        }
    }

    private void closeQuietly() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // Nothing is buffered here, so nothing is lost by a failed close.
            }
            out = null;
        }
    }
}
