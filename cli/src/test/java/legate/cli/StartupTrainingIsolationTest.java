package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.RunningChild;
import legate.testsupport.SourceTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up archive's training run (bin/legate, once per jar and JDK) serves its scripted session
 * to itself and leaves nothing behind: not in the user's store, not on any other address.
 * DEFECT (issue 30): it inherited the user's environment, so the first {@code DATA_DIR=… bin/legate
 * agent} after a build left ~250 {@code training-SendMessage-N} tasks in that store (ListTasks
 * totalSize 256), and with DATABASE_URL exported they went to the production PostgreSQL.
 */
class StartupTrainingIsolationTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");
    private static final Duration LIMIT = Duration.ofSeconds(180);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    private static void script(Path p, String body) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /**
     * A checkout with the real launcher and a JDK that is this test's own java, given this test's
     * class path where the launcher names the jar (no jar exists while the tests run). The archive
     * options are left out, since an archive of class folders cannot be recorded; the archive the
     * launcher asked for is written as a marker once the training run has ended well, so the
     * launcher goes on as after a real recording.
     */
    private Path checkout() throws IOException {
        Path root = dir.resolve("legate");
        Files.createDirectories(root.resolve("bin/lib"));
        Files.copy(SourceTree.resolve("bin/legate"), root.resolve("bin/legate"));
        Files.copy(SourceTree.resolve("bin/lib/find-jdk.sh"), root.resolve("bin/lib/find-jdk.sh"));
        Files.setPosixFilePermissions(root.resolve("bin/legate"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(root.resolve("cli/target"));
        Files.writeString(root.resolve("cli/target/legate.jar"), "a jar newer than every source");
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        Path jdk = dir.resolve("jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Files.copy(java.getParent().getParent().resolve("release"), jdk.resolve("release"));
        script(jdk.resolve("bin/javac"), "exit 0\n");
        script(jdk.resolve("bin/java"), """
                out=""; jar=""
                for a; do
                  shift
                  case $a in
                    -XX:AOTCacheOutput=*|-XX:ArchiveClassesAtExit=*) out=${a#*=} ;;
                    -XX:AOTCache=*|-XX:SharedArchiveFile=*|-Xshare:*|-Xlog:*|-XX:+UnlockDiagnosticVMOptions|-XX:-AOTReplayTraining) ;;
                    -jar) jar=next ;;
                    *) if [ "$jar" = next ]; then jar=""; set -- "$@" -cp '%s' legate.cli.Legate; else set -- "$@" "$a"; fi ;;
                  esac
                done
                [ -z "$out" ] && exec '%s' "$@"
                '%s' "$@" && echo recorded > "$out"
                """.formatted(System.getProperty("java.class.path"), java, java));
        return root;
    }

    @Test
    void theFirstStartAfterABuildLeavesNoTrainingTaskInTheStoreDataDirNames() throws Exception {
        Path root = checkout();
        Path data = dir.resolve("data");
        RunningChild agent = cleanup.register(ChildCommand.of(root.resolve("bin/legate").toString(), "agent").in(dir)
                .env(Map.of("JAVA_HOME", dir.resolve("jdk").toString(), "DATA_DIR", data.toString(), "PORT", "0",
                        "STEP_DELAY_MS", "0"))
                .without("LEGATE_CDS", "LEGATE_JAVA_OPTS", "TASK_STORE", "DATABASE_URL", "HOST", "PUBLIC_URL",
                        "A2A_BINDINGS", "TLS_CERT", "TLS_KEY")
                .start());
        Matcher m = agent.awaitLine(LISTENING, LIMIT);
        // The launcher did record an archive: the training run took place before this start.
        try (Stream<Path> archives = Files.list(root.resolve("cli/target"))) {
            assertThat(archives.map(p -> p.getFileName().toString()))
                    .as(agent.output()).anyMatch(n -> n.equals("legate.aot") || n.equals("legate.jsa"));
        }

        String listed = listTasks(Integer.parseInt(m.group(1)));

        assertThat(listed).doesNotContain("\"error\"").contains("\"totalSize\":0").doesNotContain("training-");
    }

    /**
     * The training run alone, in an environment that names a PostgreSQL store and an OTLP exporter,
     * both on a loopback listener that records whatever reaches it: the run succeeds, nothing
     * connects there, DATA_DIR is not created, and its own scratch store is gone afterwards.
     */
    @Test
    void theTrainingRunReadsNoStoreOrExporterFromTheEnvironmentAndCleansUpAfterItself() throws Exception {
        Path data = dir.resolve("data");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        try (ServerSocket trap = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String elsewhere = "127.0.0.1:" + trap.getLocalPort();
            ChildRun run = ChildCommand.java(Legate.class, "agent", "--host", "127.0.0.1", "--port", "0",
                            "--step-delay-ms", "0", AgentCommand.TRAINING_FLAG).in(dir)
                    .env(Map.of("TASK_STORE", "postgres", "DATABASE_URL", "postgres://legate:secret@" + elsewhere + "/legate",
                            "DATA_DIR", data.toString(), "OTEL_EXPORTER_OTLP_ENDPOINT", "http://" + elsewhere,
                            "OTEL_BSP_SCHEDULE_DELAY", "10", "JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp))
                    .run(LIMIT);

            assertThat(run.exitCode()).as(run.output()).isZero();
            trap.setSoTimeout(1);
            // A connection made while the run lasted waits in the backlog: accept would return it at once.
            assertThatThrownBy(trap::accept).as("something connected to the store's or exporter's address")
                    .isInstanceOf(SocketTimeoutException.class);
        }
        assertThat(data).doesNotExist();
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("legate-training"));
        }
    }

    private static String listTasks(int port) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                    .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{\"pageSize\":1}}"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
        }
    }
}
