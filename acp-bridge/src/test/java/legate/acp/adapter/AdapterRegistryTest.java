package legate.acp.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import legate.acp.BridgeFixture;
import legate.acp.FakeAgents;
import legate.acp.ProcessAssertions;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.permission.PermissionRules;
import legate.testsupport.Cleanup;
import legate.testsupport.ManualClock;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The life of the agent processes: idle reaping, what keeps an agent, and shutdown leaving no process behind. */
class AdapterRegistryTest {
    // Each test: no agent process, nor anything an agent started, may outlive it.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private final ManualClock clock = new ManualClock();

    private BridgeFixture bridge(String... args) {
        return new BridgeFixture(FakeAgents.backend(args), dir, ProcessLauncher.system(),
                PermissionRules.builtIn("default", false), BridgeLogs.disabled(), clock);
    }

    @Test
    void anIdleConversationHasItsAgentStoppedAndTheNextTaskStartsAFreshOne() throws Exception {
        try (BridgeFixture bridge = bridge()) {
            long pid = bridge.pids("idle")[0];
            // The stream ends at the terminal event, a moment before the executor lets go of the
            // conversation's turn; until then the agent is rightly not idle (it was a flaky race).
            assertThat(bridge.executionsEnded.tryAcquire(30, TimeUnit.SECONDS)).as("the pids turn ended").isTrue();
            clock.advance(BridgeFixture.IDLE.minusSeconds(1));
            assertThat(bridge.registry.reapIdle()).as("not idle for long enough yet").isEmpty();
            assertThat(ProcessAssertions.alive(pid)).isTrue();

            clock.advance(Duration.ofSeconds(2));
            assertThat(bridge.registry.reapIdle()).containsExactly("idle");
            ProcessAssertions.assertGone(pid);
            assertThat(bridge.pids("idle")[0]).isNotEqualTo(pid);
        }
    }

    @Test
    void aTaskWaitingForInputKeepsItsAgentUntilItIsCanceled() throws Exception {
        // A task still open, INPUT_REQUIRED included, keeps its adapter.
        try (BridgeFixture bridge = bridge()) {
            long pid = bridge.pids("parked")[0];
            StreamRecorder parked = bridge.send("parked", "", null).awaitEnd();
            assertThat(parked.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
            clock.advance(BridgeFixture.IDLE.multipliedBy(2));
            assertThat(bridge.registry.reapIdle()).isEmpty();
            assertThat(ProcessAssertions.alive(pid)).isTrue();

            assertThat(bridge.cancel(parked.taskId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
            clock.advance(BridgeFixture.IDLE.multipliedBy(2));
            assertThat(bridge.registry.reapIdle()).containsExactly("parked");
            ProcessAssertions.assertGone(pid);
        }
    }

    // README "Security", limits: ACP_MAX_AGENTS is a ceiling, never a queue; the agent no task holds
    // that was used longest ago gives its place.
    @Test
    void theMostAgentsAtOnceIsACeilingAndTheLeastRecentlyUsedUnusedAgentGivesItsPlace() throws Exception {
        try (BridgeFixture bridge = new BridgeFixture(FakeAgents.backend(), dir, ProcessLauncher.system(),
                PermissionRules.builtIn("default", false), BridgeLogs.disabled(), clock, 2)) {
            long old = bridge.pids("old")[0];
            clock.advance(Duration.ofMinutes(1));
            long recent = bridge.pids("recent")[0];
            clock.advance(Duration.ofMinutes(1));

            long fresh = bridge.pids("new")[0];
            ProcessAssertions.assertGone(old);
            assertThat(ProcessAssertions.alive(recent)).isTrue();

            // A question parked in a conversation keeps its agent (an open task): both places are held.
            assertThat(bridge.send("recent", "", null).awaitEnd().finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
            assertThat(bridge.send("new", "", null).awaitEnd().finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
            StreamRecorder refused = bridge.run("another", "pids");
            assertThat(refused.finalState()).isEqualTo(TaskState.TASK_STATE_FAILED);
            assertThat(String.join(" ", refused.said())).contains("already runs 2 agents", "ACP_MAX_AGENTS");
            assertThat(ProcessAssertions.alive(recent)).isTrue();
            assertThat(ProcessAssertions.alive(fresh)).isTrue();
        }
    }

    @Test
    void shutdownStopsEveryAgentWithEverythingItStarted() throws Exception {
        // PEER (codex-acp): a child that ignores stdin EOF and leaves a grandchild holding the pipes.
        BridgeFixture tree = bridge("--grandchild", "--stay-on-eof");
        long[] treePids = tree.pids("tree");
        assertThat(treePids[1]).isPositive();
        // An agent that survives EOF and SIGTERM (its shutdown hook never returns): only SIGKILL ends it.
        BridgeFixture stubborn = bridge("--ignore-term");
        long stubbornPid = stubborn.pids("stubborn")[0];

        tree.close();
        stubborn.close();
        ProcessAssertions.assertGone(treePids[0]);
        ProcessAssertions.assertGone(treePids[1]);
        ProcessAssertions.assertGone(stubbornPid);
    }
}
