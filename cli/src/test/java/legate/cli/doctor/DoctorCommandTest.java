package legate.cli.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import legate.cli.Legate;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legate doctor} as a person runs it: exit 0 only when the command can run, every finding printed. */
class DoctorCommandTest {

    private static ChildCommand doctor(Path dir, String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "doctor";
        System.arraycopy(args, 0, argv, 1, args.length);
        return ChildCommand.java(Legate.class, argv).in(dir)
                .without("PORT", "HOST", "TASK_STORE", "DATA_DIR", "DATABASE_URL", "MCP_PORT", "MCP_HOST", "MCP_TOKEN_FILE");
    }

    @Test
    void anAgentThatCanRunExitsZero(@TempDir Path dir) {
        ChildRun r = doctor(dir, "agent").env("PORT", "0").run(Duration.ofSeconds(60));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.stdout()).contains("ok    JDK").contains("task store: sqlite").contains("legate agent can run here.");
    }

    @Test
    void aStoreThatCannotBeUsedExitsOneNamingWhy(@TempDir Path dir) {
        ChildRun r = doctor(dir, "agent").env("PORT", "0").env("TASK_STORE", "postgres").run(Duration.ofSeconds(60));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).contains("FAIL  task store: postgres without DATABASE_URL")
                .contains("cannot run here: 1 check(s) failed");
    }

    @Test
    void anUnknownCommandIsAUsageError(@TempDir Path dir) {
        ChildRun r = doctor(dir, "tap").run(Duration.ofSeconds(60));
        assertThat(r.exitCode()).isEqualTo(2);
    }
}
