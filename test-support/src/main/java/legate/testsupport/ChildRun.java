package legate.testsupport;

import java.util.List;

/**
 * A child process that ran to its end: its command, exit status and what it printed.
 *
 * @param stdout everything it wrote on standard output, decoded as UTF-8
 * @param stderr everything it wrote on standard error
 */
public record ChildRun(List<String> command, int exitCode, String stdout, String stderr) {
    /** Standard output, then standard error: for assertions and their messages. */
    public String output() {
        return stderr.isEmpty() ? stdout : stdout + stderr;
    }
}
