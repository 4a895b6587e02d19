package legate.acp.bridge;

import static legate.acp.BridgeFixture.answer;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import legate.acp.BridgeFixture;
import legate.acp.FakeAgents;
import legate.acp.adapter.ConversationRecord;
import legate.acp.adapter.ConversationRecords;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.permission.PermissionRules;
import legate.testsupport.Cleanup;
import legate.testsupport.ManualClock;
import legate.testsupport.StreamRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conversations that survive (README, "Conversations"): when a context's agent was reaped for
 * idleness, or the bridge restarted, the next task starts the agent and restores the kept session
 * with session/load or session/resume, whichever the agent advertises; the task says so in a
 * WORKING line, and what a load replays is never shown as new work. FakeAcpAgent keeps each
 * session's prompts in a file in its directory, so a new process can only remember by loading.
 */
class RestoreTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private final ManualClock clock = new ManualClock();
    /** The records a bridge keeps in its task store, here in memory, shared by the two "runs" of a bridge. */
    private final Map<String, ConversationRecord> kept = new ConcurrentHashMap<>();
    private final ConversationRecords records = new ConversationRecords() {
        @Override
        public void save(String contextId, ConversationRecord record) {
            kept.put(contextId, record);
        }

        @Override
        public ConversationRecord find(String contextId) {
            return kept.get(contextId);
        }
    };

    private BridgeFixture bridge(String... args) {
        return cleanup.register(new BridgeFixture(FakeAgents.backend(args), dir.resolve("sandboxes"), ProcessLauncher.system(),
                PermissionRules.builtIn("default", false), BridgeLogs.disabled(), clock, Duration.ofMinutes(1), records));
    }

    private void reap(BridgeFixture bridge, String context) {
        clock.advance(BridgeFixture.IDLE.plusSeconds(1));
        assertThat(bridge.registry.reapIdle()).containsExactly(context);
    }

    @Test
    void afterAnIdleReapTheAgentLoadsTheSessionAndRemembers() throws Exception {
        Path journal = dir.resolve("journal.txt");
        BridgeFixture bridge = bridge("--load", "--journal", journal.toString());
        bridge.run("c", "first words");
        reap(bridge, "c");

        StreamRecorder r = bridge.run("c", "recall");
        assertThat(r.said()).anySatisfy(s -> assertThat(s).startsWith("Restored this conversation (session/load of session sess-"));
        assertThat(answer(r)).isEqualTo("earlier: first words");
        // PROTOCOL (ACP session/load): the history is replayed as updates; it is not new work for the caller.
        assertThat(String.join("\n", r.said())).doesNotContain("REPLAYED");
        assertThat(Files.readString(journal)).contains("session/load {\"sessionId\":\"sess-");
    }

    @Test
    void anAgentThatResumesIsAskedToResume() throws Exception {
        BridgeFixture bridge = bridge("--resume");
        bridge.run("c", "first words");
        reap(bridge, "c");
        StreamRecorder r = bridge.run("c", "recall");
        assertThat(r.said()).anySatisfy(s -> assertThat(s).startsWith("Restored this conversation (session/resume of"));
        assertThat(answer(r)).isEqualTo("earlier: first words");
    }

    @Test
    void aRestartedBridgeFindsTheRecordInItsStoreAndTheSameDirectory() throws Exception {
        BridgeFixture before = bridge("--load");
        before.run("c", "before the restart");
        String root = kept.get("c").root();
        before.close();

        BridgeFixture after = bridge("--load");
        StreamRecorder r = after.run("c", "recall");
        assertThat(answer(r)).isEqualTo("earlier: before the restart");
        assertThat(kept.get("c").root()).as("the conversation keeps its sandbox").isEqualTo(root);
    }

    @Test
    void anAgentWithoutLoadSessionStartsFreshAndSaysTheMemoryIsLost() throws Exception {
        BridgeFixture bridge = bridge();
        bridge.run("c", "first words");
        reap(bridge, "c");
        StreamRecorder r = bridge.run("c", "recall");
        assertThat(r.said()).anySatisfy(s -> assertThat(s).startsWith("The earlier memory of this conversation is lost")
                .contains("neither loadSession nor sessionCapabilities.resume"));
        assertThat(answer(r)).isEqualTo("earlier: ");
    }

    @Test
    void aSessionTheAgentNoLongerHasStartsFreshAndSaysWhy() throws Exception {
        BridgeFixture bridge = bridge("--load");
        bridge.run("c", "first words");
        // The agent lost the session (its store was wiped): session/load answers an error.
        ConversationRecord r0 = kept.get("c");
        Files.delete(Path.of(r0.root()).resolve(".fake-session-" + r0.sessionId()));
        reap(bridge, "c");
        StreamRecorder r = bridge.run("c", "recall");
        assertThat(r.said()).anySatisfy(s -> assertThat(s).startsWith("The earlier memory of this conversation is lost")
                .contains("session/load"));
        assertThat(answer(r)).isEqualTo("earlier: ");
    }
}
