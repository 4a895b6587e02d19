package legate.acp.adapter;

import static legate.acp.BridgeFixture.answer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.acp.BridgeFixture;
import legate.acp.FakeAgents;
import legate.acp.ProcessAssertions;
import legate.acp.connection.AdapterCommand;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.permission.PermissionRules;
import legate.acp.protocol.InitializeResponse;
import legate.testsupport.Cleanup;
import legate.testsupport.OwnThreads;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Bringing an agent to a supervised session: the handshake, its failures, and a cancel that beats it. */
class AdapterStartTest {
    // Each test: no agent process, nor anything an agent started, may outlive it.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    private long journalPid(Path journal) throws Exception {
        return Long.parseLong(Files.readAllLines(journal).get(0).substring("pid ".length()));
    }

    @Test
    void aCancelThatArrivesWhileTheAgentStartsIsHonouredBeforePrompting() throws Exception {
        // PROTOCOL (A2A §3.1.5): the task goes out before spawn + initialize + session/new; a
        // cancel in that window is recorded, and no prompt is ever sent.
        Path journal = dir.resolve("journal.txt");
        CountDownLatch launching = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ProcessLauncher slow = (command, cwd) -> {
            launching.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new InterruptedIOException("interrupted");
            }
            return ProcessLauncher.system().launch(command, cwd);
        };
        try (BridgeFixture bridge = new BridgeFixture(FakeAgents.backend("--journal", journal.toString()), dir,
                slow, PermissionRules.builtIn("default", false), BridgeLogs.disabled(), Clock.systemUTC())) {
            StreamRecorder r = bridge.send("slow-start", "", "echo should never be prompted");
            assertThat(launching.await(30, TimeUnit.SECONDS)).isTrue();
            String taskId = r.taskId();
            CompletableFuture<Task> canceled = CompletableFuture.supplyAsync(() -> bridge.cancel(taskId), OwnThreads.EACH);
            assertThat(bridge.cancelsDelivered.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
            release.countDown();
            assertThat(canceled.get(30, TimeUnit.SECONDS).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
            r.awaitEnd();
            assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
            assertThat(r.artifacts()).isEmpty();
            assertThat(Files.readString(journal)).contains("session/new").doesNotContain("session/prompt");
            // The agent that was started stays for the conversation's next task.
            assertThat(answer(bridge.run("slow-start", "recall"))).isEqualTo("earlier: ");
        }
    }

    @Test
    void aModeThatCannotBeSetFailsTheTaskAndEndsTheSession() throws Exception {
        // The bridge must never report a supervision it is not performing.
        Path journal = dir.resolve("journal.txt");
        try (BridgeFixture bridge = new BridgeFixture(FakeAgents.withMode("no-such-mode", "--journal", journal.toString()),
                dir)) {
            StreamRecorder r = bridge.run("modes", "echo hello");
            assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_FAILED);
            assertThat(r.lastSaid()).contains("could not be switched to its supervised mode 'no-such-mode'")
                    .contains("Invalid mode");
            ProcessAssertions.assertGone(journalPid(journal));
            assertThat(Files.readString(journal)).doesNotContain("session/prompt");
        }
    }

    @Test
    void anAgentThatWantsALoginAtSessionNewFailsTheTaskInPlainWords() throws Exception {
        // PEER (codex-acp): without credentials session/new fails at once with -32000.
        try (BridgeFixture bridge = new BridgeFixture(FakeAgents.backend("--auth-at-new"), dir)) {
            StreamRecorder r = bridge.run("login", "echo hello");
            assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_FAILED);
            assertThat(r.lastSaid()).contains("Fake Agent is not logged in").contains("session/new");
        }
    }

    @Test
    void anAgentThatCannotBeStartedFailsTheTaskSayingWhy() throws Exception {
        Backend missing = new Backend(Backend.GENERIC, "Ghost", AdapterCommand.of(List.of(dir.resolve("no-agent").toString())),
                null, "");
        try (BridgeFixture bridge = new BridgeFixture(missing, dir)) {
            StreamRecorder r = bridge.run("ghost", "hello");
            assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_FAILED);
            assertThat(r.lastSaid()).startsWith("Cannot start Ghost (no-agent)");
        }
    }

    @Test
    void theHandshakeReadsTheAgentInfoAndStopsTheAgentAgain() throws Exception {
        Path journal = dir.resolve("journal.txt");
        try (BridgeFixture bridge = new BridgeFixture(FakeAgents.backend("--journal", journal.toString(), "--stay-on-eof"),
                dir)) {
            InitializeResponse init = bridge.registry.probe(dir);
            assertThat(init.protocolVersion()).isEqualTo(1);
            assertThat(init.agentInfo().displayName()).isEqualTo("Fake Agent");
            assertThat(init.agentInfo().version()).isEqualTo("9.9.9");
            ProcessAssertions.assertGone(journalPid(journal));
        }
    }

    @Test
    void aHandshakeThatTimesOutSaysSo() throws Exception {
        // An agent that never answers: java itself, reading nothing from stdin.
        Backend mute = new Backend(Backend.GENERIC, "Mute", AdapterCommand.of(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                Mute.class.getName())), null, "");
        AdapterConfig quick = new AdapterConfig(dir, null, Duration.ofMinutes(1), Duration.ofMillis(1500), Duration.ofMillis(200), 1024);
        AdapterRegistry registry = new AdapterRegistry(mute, quick, ProcessLauncher.system(),
                PermissionRules.builtIn(null, false), BridgeLogs.disabled(), Clock.systemUTC());
        assertThatThrownBy(() -> registry.probe(dir)).isInstanceOf(AdapterStartFailed.class)
                .hasMessageContaining("did not answer initialize in time");
    }

    /** A child that never says anything. */
    public static final class Mute {
        public static void main(String[] args) throws InterruptedException {
            new CountDownLatch(1).await();
        }
    }
}
