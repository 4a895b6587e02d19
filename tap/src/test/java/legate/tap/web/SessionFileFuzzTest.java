package legate.tap.web;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes the reading of a recorded session that a person opens in the tap's page or passes to
 * {@code legate tap --replay}: a HAR 1.2 file from the tap or a browser ({@link HarReader}), or the
 * tap's JSON Lines (docs/fuzzing.md). Property: a file that is not one costs an
 * {@link IllegalArgumentException} naming what is wrong (its documented failure, shown to the
 * person), never another exception, which the page would answer with a 500 and the log a stack trace.
 */
class SessionFileFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void anyFileIsReadOrRefusedWithAReason(byte[] file) {
        try {
            SessionFile.read(file);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                throw new AssertionError("a refusal says what is wrong", e);
            }
        }
    }
}
