package legate.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.SourceTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/tck.sh} says clearly what it needs before it starts anything: a TCK checkout, a
 * Python, and the TCK's packages, each missing one named with what to install. (The run itself
 * needs the TCK and its packages from PyPI, so it is not part of the build; docs/conformance.md
 * keeps its result.)
 */
class TckScriptTest {
    private static final Duration RUN_LIMIT = Duration.ofSeconds(60);
    private static final Path SCRIPT = SourceTree.resolve("scripts/tck.sh");

    /** A directory shaped like a TCK checkout (the two paths the script looks for), with nothing of the TCK in it. */
    private static Path checkoutShape(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("tests/compatibility"));
        Files.writeString(dir.resolve("run_tck.py"), "");
        return dir;
    }

    @Test
    void aDirectoryThatIsNoTckCheckoutIsRefusedNamingIt(@TempDir Path dir) {
        ChildRun run = ChildCommand.of("bash", SCRIPT.toString(), dir.toString()).run(RUN_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains(dir + " is not a checkout of a2aproject/a2a-tck 1.0-dev");
    }

    @Test
    void withoutAPythonItSaysWhichToSet(@TempDir Path dir) throws Exception {
        ChildRun run = ChildCommand.of("bash", SCRIPT.toString(), checkoutShape(dir).toString())
                .env("TCK_PYTHON", dir.resolve("no-python").toString()).run(RUN_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("no Python at").contains("TCK_PYTHON");
    }

    // A virtual environment without pip holds the standard library only: every package is missing.
    @Test
    void aPythonWithoutTheTcksPackagesIsRefusedListingEachOne(@TempDir Path dir) throws Exception {
        Path venv = dir.resolve("venv");
        ChildRun made = ChildCommand.of("python3", "-m", "venv", "--without-pip", venv.toString()).run(RUN_LIMIT);
        assertThat(made.exitCode()).as("python3 -m venv (install Python 3.11 or newer): " + made.output()).isZero();

        ChildRun run = ChildCommand.of("bash", SCRIPT.toString(), checkoutShape(dir.resolve("tck")).toString())
                .env("TCK_PYTHON", venv.resolve("bin/python").toString()).run(RUN_LIMIT);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("lacks what the TCK needs")
                .contains("  pytest>=8\n", "  pytest-asyncio\n", "  httpx\n", "  grpcio\n", "  protobuf>=6.30.2\n",
                        "  googleapis-common-protos\n", "  jsonschema\n")
                .contains("pip")
                // Nothing was started: the agent's start line never appears.
                .doesNotContain("is listening on");
    }
}
