package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.RunningChild;
import legate.testsupport.SourceTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/legate stops on SIGTERM whatever it is doing, including the two long steps before the server
 * exists: the build and the start-up archive's training run. A copy of the launcher runs against a
 * stand-in JDK and Maven wrapper whose long step is a sleep, so the moment of the signal is known.
 * DEFECT: a launcher signalled while it trained went on to start the server 15 s later.
 */
class LauncherSignalTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    private static void script(Path p, String body) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A checkout with the real launcher, a stand-in Maven wrapper, and a stand-in JDK 21. */
    private Path checkout() throws IOException {
        Path root = dir.resolve("legate");
        Files.createDirectories(root.resolve("bin/lib"));
        Files.copy(SourceTree.resolve("bin/legate"), root.resolve("bin/legate"));
        Files.copy(SourceTree.resolve("bin/lib/find-jdk.sh"), root.resolve("bin/lib/find-jdk.sh"));
        Files.setPosixFilePermissions(root.resolve("bin/legate"), PosixFilePermissions.fromString("rwxr-xr-x"));
        script(root.resolve("mvnw"), "echo $$ > '" + dir.resolve("build.pid") + "'\nexec sleep 60\n");
        Path jdk = dir.resolve("jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"21.0.5\"\n");
        script(jdk.resolve("bin/javac"), "exit 0\n");
        script(jdk.resolve("bin/java"), """
                case "$*" in
                  *--start-cache-training*) echo $$ > '%s'; exec sleep 60 ;;
                  *) echo started > '%s'; exec sleep 60 ;;
                esac
                """.formatted(dir.resolve("train.pid"), dir.resolve("server.started")));
        return root;
    }

    private RunningChild launch(Path root) {
        return cleanup.register(ChildCommand.of(root.resolve("bin/legate").toString(), "agent").in(dir)
                .env("JAVA_HOME", dir.resolve("jdk").toString()).without("LEGATE_CDS", "LEGATE_JAVA_OPTS").start());
    }

    private static long awaitPid(Path file) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(file)) {
                String s = Files.readString(file).strip();
                if (!s.isEmpty()) {
                    return Long.parseLong(s);
                }
            }
            // A file another process writes: no event to await, so it is polled, briefly and bounded.
            Thread.sleep(10);
        }
        throw new AssertionError(file + " never appeared: the step did not start");
    }

    private static void assertGone(long pid) throws Exception {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isPresent()) {
            h.get().onExit().get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aSigtermDuringTheBuildEndsTheBuildAndTheLauncherAtOnce() throws Exception {
        RunningChild launcher = launch(checkout());
        long build = awaitPid(dir.resolve("build.pid"));
        launcher.process().destroy();
        ChildRun run = launcher.awaitExit(Duration.ofSeconds(10));
        assertThat(run.exitCode()).isEqualTo(143);
        assertGone(build);
    }

    @Test
    void aSigtermDuringTheTrainingRunEndsItAndNoServerStartsAfterwards() throws Exception {
        Path root = checkout();
        Files.createDirectories(root.resolve("cli/target"));
        Files.writeString(root.resolve("cli/target/legate.jar"), "a jar newer than every source");
        RunningChild launcher = launch(root);
        long training = awaitPid(dir.resolve("train.pid"));
        launcher.process().destroy();
        ChildRun run = launcher.awaitExit(Duration.ofSeconds(10));
        assertThat(run.exitCode()).isEqualTo(143);
        assertGone(training);
        assertThat(dir.resolve("server.started")).doesNotExist();
    }
}
