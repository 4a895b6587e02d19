package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@code legate agent} and {@code legate bridge} keep their tasks when DATA_DIR is not set,
 * as real processes started from one folder, as the README's tour starts them.
 * DEFECT (issue 30): both defaulted to data/legate.db, and the second exited "data/legate.db is in
 * use by another Legate process".
 */
class DefaultStoreTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");
    private static final Duration START_LIMIT = Duration.ofSeconds(30);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    private ChildCommand legate(String command) {
        return ChildCommand.java(Legate.class, command).in(dir)
                .without("HOST", "PUBLIC_URL", "TASK_STORE", "DATA_DIR", "DATABASE_URL", "ACP_AGENT", "ACP_MODE",
                        "ACP_POLICY", "ACP_PERMISSIONS")
                .env("PORT", "0").env("STEP_DELAY_MS", "0");
    }

    private RunningChild started(ChildCommand command) {
        RunningChild child = cleanup.register(command.start());
        child.awaitLine(LISTENING, START_LIMIT);
        return child;
    }

    @Test
    void anAgentAndABridgeFromOneFolderEachKeepTheirOwnStoreAndASecondAgentIsRefused() {
        String agentCmd = NodeScript.of("acp-agent.mjs").commandLine().stream().map(w -> "'" + w + "'")
                .collect(Collectors.joining(" "));
        RunningChild agent = started(legate("agent"));
        started(legate("bridge").env("ACP_AGENT_CMD", agentCmd));
        assertThat(dir.resolve("data/agent/legate.db")).exists();
        assertThat(dir.resolve("data/bridge/legate.db")).exists();

        // Two processes of one command on one store are still refused, saying which file and what to do.
        ChildRun second = legate("agent").run(START_LIMIT);
        assertThat(second.exitCode()).isEqualTo(1);
        assertThat(second.stderr()).contains(Path.of("data", "agent", "legate.db") + " is in use by another Legate process")
                .contains("DATA_DIR").doesNotContain("\tat ");

        // Both commands default to PORT 41241: a second server on a port in use is told to take its own.
        String port = agent.awaitLine(LISTENING, START_LIMIT).group(1);
        ChildRun samePort = legate("bridge").env("ACP_AGENT_CMD", agentCmd).env("PORT", port)
                .env("DATA_DIR", dir.resolve("elsewhere").toString()).run(START_LIMIT);
        assertThat(samePort.exitCode()).isEqualTo(1);
        assertThat(samePort.stderr()).contains("cannot listen on 127.0.0.1:" + port)
                .contains("give this one a PORT of its own, or 0 for any free port").doesNotContain("\tat ");
    }

    // An existing user's data/legate.db is not taken over silently: one line says where tasks go now, and how to keep the old ones.
    @Test
    void theStoreOfAnEarlierLegateIsNamedWithHowToGoOnWithIt() throws Exception {
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/legate.db"), "");
        RunningChild agent = started(legate("agent"));
        agent.awaitLine(Pattern.compile(Pattern.quote("legate agent: note: data/legate.db is the store of an earlier Legate")
                + ".*" + Pattern.quote("now keeps its tasks in data/agent/") + ".*" + Pattern.quote("or set DATA_DIR=data")),
                START_LIMIT);
        assertThat(dir.resolve("data/legate.db")).exists();
    }
}
