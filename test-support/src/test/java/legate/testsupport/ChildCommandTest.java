package legate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Child processes run with bounded waits, their output captured, and the Node.js scripts of interop/. */
class ChildCommandTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void aRunCapturesBothPipesAndTheExitStatus(@TempDir Path dir) {
        ChildRun run = ChildCommand.of("sh", "-c", "echo \"out $GREETING\"; echo err >&2; pwd; exit 3")
                .in(dir).env("GREETING", "héllo").run(Duration.ofSeconds(30));

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.stdout()).isEqualTo("out héllo\n" + dir + "\n");
        assertThat(run.stderr()).isEqualTo("err\n");
    }

    // Rule: a child that outlives its bound fails the test and is killed with what it started,
    // grandchildren included; the extension of this class then finds nothing left.
    @Test
    void aRunOverItsBoundKillsTheWholeTree(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("grandchild.pid");
        ChildCommand hanging = ChildCommand.of("sh", "-c", "sleep 60 & echo $! > '" + pidFile + "'; echo started; wait");

        assertThatThrownBy(() -> hanging.run(Duration.ofSeconds(2))).isInstanceOf(AssertionError.class)
                .hasMessageContaining("did not finish within PT2S").hasMessageContaining("started");
        long grandchild = Long.parseLong(Files.readString(pidFile).strip());
        assertThat(CleanupTest.goneWithin(grandchild, Duration.ofSeconds(10))).as("the grandchild was killed").isTrue();
    }

    @Test
    void aLineIsAwaitedAndClosingStopsTheChild() {
        RunningChild child = ChildCommand.of("sh", "-c", "echo 'listening 4242'; exec sleep 60").start();

        Matcher m = child.awaitLine(Pattern.compile("listening (\\d+)"), Duration.ofSeconds(30));
        assertThat(m.group(1)).isEqualTo("4242");
        child.close();
        assertThat(child.process().isAlive()).isFalse();
    }

    // Rule: every process a test starts stops on SIGTERM; one that has to be killed fails the test.
    @Test
    void aChildThatIgnoresSigtermIsKilledAndReported() {
        RunningChild stubborn = ChildCommand.of("sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done").start();
        stubborn.awaitLine(Pattern.compile("ready"), Duration.ofSeconds(30));

        assertThatThrownBy(() -> stubborn.stop(Duration.ofMillis(500))).isInstanceOf(AssertionError.class).hasMessageContaining("ignored SIGTERM");
        assertThat(stubborn.process().isAlive()).isFalse();
    }

    @Test
    void aChildThatEndsWithoutTheLineFailsSayingWhatItPrinted() {
        try (RunningChild child = ChildCommand.of("sh", "-c", "echo 'port in use'; exit 1").start()) {
            assertThatThrownBy(() -> child.awaitLine(Pattern.compile("listening"), Duration.ofSeconds(30)))
                    .hasMessageContaining("ended its output without a line matching /listening/")
                    .hasMessageContaining("port in use");
        }
    }

    @Test
    void aProgramThatIsNotInstalledIsNamed() {
        assertThatThrownBy(() -> ChildCommand.of("no-such-program-legate").start())
                .isInstanceOf(AssertionError.class).hasMessageContaining("cannot start no-such-program-legate");
    }

    // Rule: the interop tests fail loudly, naming what to install, when Node.js is missing; never skip.
    @Test
    void aMissingNodeFailsNamingWhatToInstall(@TempDir Path empty) {
        assertThatThrownBy(() -> NodeScript.test("a2a-client-check.mjs").env("PATH", empty.toString()).run(Duration.ofSeconds(5)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Node.js >= 20 is required to run interop/a2a-client-check.mjs")
                .hasMessageContaining("install Node.js 20 or newer");
    }

    // The reference server of interop/, run as the A2A client's interop test runs it: installed once,
    // started, its port read from its first line, stopped by closing it.
    @Test
    void anInteropScriptRunsWithItsPackagesInstalled() {
        RunningChild server = cleanup.register(NodeScript.of("revisor-server.mjs").env("PORT", "0").start());

        Matcher m = server.awaitLine(Pattern.compile("^listening (\\d+)$"), Duration.ofSeconds(60));
        assertThat(Integer.parseInt(m.group(1))).isPositive();
        assertThat(SourceTree.resolve("interop/node_modules/@a2a-js/sdk")).isDirectory();
    }
}
