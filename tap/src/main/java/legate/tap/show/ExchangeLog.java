package legate.tap.show;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The tap's record for later reading ({@code --log FILE}): one JSON object per line and per event,
 * appended and flushed as it happens, so a stream can be followed with {@code tail -f} and a crash
 * loses nothing already seen. The lines are {@link EventLine}s, so {@code legate tap --replay}
 * reads the file back.
 *
 * <p>A write that fails is reported once on standard error; the traffic goes on.
 */
public final class ExchangeLog implements ExchangeListener, AutoCloseable {
    private final Path file;
    private final OutputStream out;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean failed;

    private ExchangeLog(Path file, OutputStream out) {
        this.file = file;
        this.out = out;
    }

    /** Opens {@code file} for appending, creating it when missing. */
    public static ExchangeLog open(Path file) throws IOException {
        return new ExchangeLog(file, new BufferedOutputStream(Files.newOutputStream(file,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE)));
    }

    @Override
    public void on(ExchangeEvent event) {
        // Encoded once: with the page on, the inspector keeps the same bytes.
        write(EncodedLine.of(event).bytes());
    }

    private void write(byte[] json) {
        lock.lock();
        try {
            out.write(json);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            if (!failed) {
                failed = true;
                System.err.println("legate tap: cannot write the log " + file + ": " + e.getMessage());
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            out.close();
        } finally {
            lock.unlock();
        }
    }
}
