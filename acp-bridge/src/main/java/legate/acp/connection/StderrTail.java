package legate.acp.connection;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An agent's stderr, read to its end on a thread of its own, keeping the last lines: often the
 * only explanation there is when an agent dies. PEER (claude-agent-acp): stderr is chatty, and a
 * full pipe would block the agent, so it is always read.
 */
final class StderrTail {
    private static final int KEPT = 20;
    private static final int MAX_LINE = 16 * 1024;

    private final ArrayDeque<String> lines = new ArrayDeque<>();

    private StderrTail() {
    }

    static StderrTail drain(InputStream stderr, String threadName, Consumer<String> onLine) {
        StderrTail tail = new StderrTail();
        Thread.ofPlatform().daemon().name(threadName).start(() -> tail.read(stderr, onLine));
        return tail;
    }

    private void read(InputStream stderr, Consumer<String> onLine) {
        LineReader reader = new LineReader(stderr, MAX_LINE);
        try {
            while (true) {
                String line;
                try {
                    line = reader.readLine();
                } catch (LineReader.LineTooLong e) {
                    continue;
                }
                if (line == null) {
                    return;
                }
                synchronized (lines) {
                    if (lines.size() == KEPT) {
                        lines.removeFirst();
                    }
                    lines.addLast(line);
                }
                onLine.accept(line);
            }
        } catch (IOException ignored) {
            // the process is gone
        }
    }

    /** The last lines, oldest first. */
    List<String> lines() {
        synchronized (lines) {
            return new ArrayList<>(lines);
        }
    }
}
