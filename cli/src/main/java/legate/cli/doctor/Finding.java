package legate.cli.doctor;

/**
 * One line of {@code legate doctor}: what was looked at, how it stands, and what to do about it.
 *
 * @param subject what was checked ("Node.js", "port 41241")
 * @param verdict whether the chosen command can run as far as this check goes
 * @param detail what was found
 * @param fix what to do, or null when nothing is needed
 */
public record Finding(String subject, Verdict verdict, String detail, String fix) {

    public enum Verdict {
        /** Fine. */
        OK,
        /** The command runs, but something will surprise the person (a version Legate was not tested with). */
        WARN,
        /** The command cannot run, or will fail at its first task. */
        FAIL
    }

    static Finding ok(String subject, String detail) {
        return new Finding(subject, Verdict.OK, detail, null);
    }

    static Finding warn(String subject, String detail, String fix) {
        return new Finding(subject, Verdict.WARN, detail, fix);
    }

    static Finding fail(String subject, String detail, String fix) {
        return new Finding(subject, Verdict.FAIL, detail, fix);
    }

    /** As printed: the verdict, the subject, what was found, and the fix on a line of its own. */
    public String line() {
        String head = switch (verdict) {
            case OK -> "ok    ";
            case WARN -> "warn  ";
            case FAIL -> "FAIL  ";
        };
        return head + subject + ": " + detail + (fix == null ? "" : "\n      -> " + fix);
    }
}
