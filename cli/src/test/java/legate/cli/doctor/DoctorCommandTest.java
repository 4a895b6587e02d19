package legate.cli.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
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
                .without("PORT", "HOST", "TASK_STORE", "DATA_DIR", "DATABASE_URL", "MCP_PORT", "MCP_HOST", "MCP_TOKEN_FILE",
                        "ACP_AGENT", "ACP_AGENT_CMD");
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

    /**
     * DEFECT (issue 30): a bare {@code legate doctor} checked only {@code agent}. A newcomer's "can
     * Legate run here?" gets every command's checks, grouped under its name, and one summary line.
     */
    @Test
    void withoutACommandEveryCommandIsCheckedGroupedWithASummary(@TempDir Path dir) throws Exception {
        // The store of a Legate from before each command had a folder of its own.
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/legate.db"), "");
        ChildRun r = doctor(dir).env("PORT", "0").env("MCP_PORT", "0").env("ACP_AGENT_CMD", "node --version")
                .run(Duration.ofSeconds(60));
        String out = r.stdout();
        assertThat(out).contains("legate agent\n  ok    JDK").contains("\nlegate bridge\n").contains("\nlegate mcp\n")
                .contains("  ok    adapter: ACP_AGENT_CMD").contains("MCP token file")
                .contains("data/legate.db is the store of an earlier Legate");
        assertThat(out.indexOf("legate agent")).isLessThan(out.indexOf("legate bridge"));
        assertThat(out.indexOf("legate bridge")).isLessThan(out.indexOf("legate mcp"));
        String summary = out.strip().lines().reduce((a, b) -> b).orElseThrow();
        assertThat(summary).matches("Legate (can|cannot) run (everything )?here: agent can run; bridge .*; mcp can run\\.");
        assertThat(r.exitCode()).isEqualTo(summary.startsWith("Legate can run here") ? 0 : 1);
    }

    @Test
    void anUnknownCommandIsAUsageError(@TempDir Path dir) {
        ChildRun r = doctor(dir, "tap").run(Duration.ofSeconds(60));
        assertThat(r.exitCode()).isEqualTo(2);
    }
}
