package legate.acp.bridge;

import static legate.acp.BridgeFixture.answer;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import legate.acp.BridgeFixture;
import legate.acp.FakeAgents;
import legate.acp.ProcessAssertions;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.permission.PermissionRules;
import legate.testsupport.Cleanup;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The translation table of the README (ACP -> A2A), one row per test, as an A2A client sees it
 * through the request handler, with {@code FakeAcpAgent} running as a real child process.
 */
class AcpExecutorTest {
    // Closes the bridge after the class: every agent it started must be gone after the grace period.
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static BridgeFixture bridge;
    private static Path journal;

    @BeforeAll
    static void start() {
        journal = dir.resolve("journal.txt");
        BridgeLogs logs = new BridgeLogs(dir.resolve("logs"), 1 << 20, 2, Clock.systemUTC(), System.err);
        bridge = cleanup.register(new BridgeFixture(FakeAgents.backend("--journal", journal.toString()),
                dir.resolve("sandboxes"), ProcessLauncher.system(), PermissionRules.builtIn("default", false), logs,
                Clock.systemUTC()));
    }

    private static String ctx() {
        return UUID.randomUUID().toString();
    }

    private static Value data(Artifact a) {
        return a.getParts(a.getPartsCount() - 1).getData();
    }

    @Test
    void theTaskComesFirstAndANonAsciiAnswerArrivesIntactAsTheArtifact() throws Exception {
        // PROTOCOL (A2A §3.1.2): the task snapshot goes out first, before the agent is even started.
        // DEFECT (acp-core 0.14.0): stdout read in the platform charset mangled non-ASCII answers; here
        // the agent sends the text one code point per update, so multi-byte characters cross every boundary.
        String text = "Grüße, 世界! 🚀 naïve café — ok";
        StreamRecorder r = bridge.run(ctx(), "echo " + text);
        assertThat(r.kinds().get(0)).isEqualTo("task:SUBMITTED");
        assertThat(r.states()).containsExactly(TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED);
        assertThat(r.kinds()).containsSubsequence("artifact:answer", "status:COMPLETED");
        assertThat(answer(r)).isEqualTo(text);
        Value d = data(r.artifacts().get(0));
        assertThat(d.getStructValue().getFieldsOrThrow("stopReason").getStringValue()).isEqualTo("end_turn");
        assertThat(d.getStructValue().getFieldsOrThrow("usage").getStructValue().getFieldsOrThrow("totalTokens")
                .getNumberValue()).isEqualTo(15);
    }

    @Test
    void theSupervisedModeIsSelectedAfterSessionNew() throws Exception {
        // Supervision: after session/new the bridge selects the supervised mode (the fake starts in "ask").
        assertThat(answer(bridge.run(ctx(), "mode"))).isEqualTo("mode default");
    }

    @Test
    void aMessageWithoutTextAsksForInputWithoutPromptingAndTheReplyLandsInTheSameSession() throws Exception {
        String c = ctx();
        long pid = bridge.pids(c)[0];
        long promptsBefore = prompts();
        StreamRecorder parked = bridge.send(c, "", null).awaitEnd();
        assertThat(parked.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(parked.lastSaid()).contains("no text");
        assertThat(prompts()).as("no prompt is sent for a message without text").isEqualTo(promptsBefore);
        assertThat(ProcessAssertions.alive(pid)).as("the conversation keeps its agent").isTrue();

        StreamRecorder resumed = bridge.send(c, parked.taskId(), "recall").awaitEnd();
        assertThat(resumed.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(answer(resumed)).as("the session remembers the earlier turn").isEqualTo("earlier: pids");
        assertThat(bridge.pids(c)[0]).isEqualTo(pid);
    }

    @Test
    void conversationsHaveTheirOwnAgentAndMemory() throws Exception {
        String a = ctx();
        String b = ctx();
        bridge.run(a, "remember the number 42");
        assertThat(answer(bridge.run(b, "recall"))).isEqualTo("earlier: ");
        assertThat(answer(bridge.run(a, "recall"))).isEqualTo("earlier: remember the number 42");
        assertThat(bridge.pids(a)[0]).isNotEqualTo(bridge.pids(b)[0]);
    }

    @Test
    void streamedTokensAreCoalescedIntoFewStatusUpdates() throws Exception {
        // DEFECT (Ambassy with codex-acp): one token per update became one A2A status event per token.
        StreamRecorder r = bridge.run(ctx(), "tokens 400");
        assertThat(answer(r)).hasSize(400);
        List<String> chunks = r.said().stream().filter(s -> s.startsWith("a")).toList();
        // The first token goes out at once (a watcher sees the answer start), the rest in pieces of 160.
        assertThat(chunks).hasSize(4).allSatisfy(s -> assertThat(s.length()).isLessThanOrEqualTo(160));
        assertThat(chunks.get(0)).isEqualTo("a");
        assertThat(String.join("", chunks)).hasSize(400);
        // A newline lets the text out at once; the rest follows at the end of the turn.
        StreamRecorder lines = bridge.run(ctx(), "lines");
        assertThat(lines.said()).containsSubsequence("Answer:", " first line\n", "second");
    }

    @Test
    void thoughtsToolCallsAndPlansBecomeReadableWorkingUpdatesWithTheRawUpdate() throws Exception {
        StreamRecorder r = bridge.run(ctx(), "tools");
        assertThat(r.said()).containsSubsequence("Thinking: pondering", "Tool call: Read notes.txt (read, pending) on /tmp/notes.txt",
                "Tool call t1: completed", "Plan:\n[x] Read the notes\n[ ] Answer");
        Message toolCall = r.statusMessages().stream().filter(m -> StreamRecorder.text(m).startsWith("Tool call: ")).findFirst()
                .orElseThrow();
        assertThat(toolCall.getMetadata().getFieldsOrThrow("acp").getStructValue().getFieldsOrThrow("sessionUpdate")
                .getStringValue()).isEqualTo("tool_call");
        // Coalesced text names its kind the same way, though it no longer carries a raw update of its own.
        Message thought = r.statusMessages().stream().filter(m -> StreamRecorder.text(m).startsWith("Thinking: ")).findFirst()
                .orElseThrow();
        assertThat(thought.getMetadata().getFieldsOrThrow("acp").getStructValue().getFieldsOrThrow("sessionUpdate")
                .getStringValue()).isEqualTo("agent_thought_chunk");
        // Issue 12: a thought frame says so in its metadata, so a client can show or hide thinking.
        assertThat(thought.getMetadata().getFieldsOrThrow("thought").getBoolValue()).isTrue();
        Message answer = r.statusMessages().stream().filter(m -> StreamRecorder.text(m).equals("done")).findFirst()
                .orElseThrow();
        assertThat(answer.getMetadata().getFieldsOrThrow("acp").getStructValue().getFieldsOrThrow("sessionUpdate")
                .getStringValue()).isEqualTo("agent_message_chunk");
        // An update kind the bridge does not know is ignored, never fatal.
        assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(answer(r)).isEqualTo("done");
        // Issue 12: one record per tool call, with its final status and paths.
        var calls = data(r.artifacts().get(0)).getStructValue().getFieldsOrThrow("toolCalls").getListValue();
        assertThat(calls.getValuesCount()).isEqualTo(1);
        var call = calls.getValues(0).getStructValue().getFieldsMap();
        assertThat(call.get("id").getStringValue()).isEqualTo("t1");
        assertThat(call.get("kind").getStringValue()).isEqualTo("read");
        assertThat(call.get("status").getStringValue()).isEqualTo("completed");
        assertThat(call.get("paths").getListValue().getValues(0).getStringValue()).isEqualTo("/tmp/notes.txt");
        assertThat(thought.getMetadata().containsFields("thought")).isTrue();
        assertThat(answer.getMetadata().containsFields("thought")).as("an answer frame is no thought").isFalse();
    }

    @Test
    void theAgentsStderrGoesToItsLogWithTheContext() throws Exception {
        String c = ctx();
        assertThat(answer(bridge.run(c, "stderr about the weather"))).isEqualTo("complained");
        Path log = dir.resolve("logs").resolve(BridgeLogs.AGENT_STDERR);
        // stderr is drained on its own thread: the line may land just after the answer.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(Files.exists(log) && Files.readString(log).contains("fake agent complains")) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(Files.readString(log)).containsPattern(" " + c + " \\d+ fake agent complains: about the weather");
    }

    @Test
    void theAnswerRecordsTheTurnAndTheEditsArePublishedAsDiffs() throws Exception {
        // Issue 12: the answer's data part is the whole record of the turn; the edits are an artifact `changes`.
        String c = ctx();
        StreamRecorder r = bridge.run(c, "edit");
        Struct d = data(r.artifacts().get(0)).getStructValue();
        assertThat(r.artifacts().get(0).getArtifactId()).isEqualTo("answer");
        assertThat(d.getFieldsOrThrow("backend").getStringValue()).isEqualTo("acp");
        assertThat(d.getFieldsOrThrow("sessionId").getStringValue()).startsWith("sess-");
        assertThat(Path.of(d.getFieldsOrThrow("root").getStringValue())).startsWith(dir.resolve("sandboxes").toRealPath());
        assertThat(d.getFieldsOrThrow("toolCalls").getListValue().getValuesList())
                .extracting(v -> v.getStructValue().getFieldsOrThrow("status").getStringValue())
                .containsExactly("completed", "completed", "failed");
        // PEER (codex-acp): a failed command still ends end_turn; the count is how the caller learns of it.
        assertThat(d.getFieldsOrThrow("failedToolCalls").getNumberValue()).isEqualTo(1);
        assertThat(d.getFieldsOrThrow("budget").getStructValue().getFieldsOrThrow("prompts").getNumberValue()).isEqualTo(1);
        assertThat(d.getFieldsOrThrow("budget").getStructValue().getFieldsOrThrow("totalTokens").getNumberValue()).isEqualTo(15);

        Artifact changes = r.artifacts().get(1);
        assertThat(changes.getArtifactId()).isEqualTo("changes");
        assertThat(changes.getParts(0).getText()).isEqualTo("--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n");
        assertThat(changes.getParts(0).getMetadata().getFieldsOrThrow("path").getStringValue()).isEqualTo("a.txt");
        assertThat(changes.getParts(1).getText()).isEqualTo("--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1,1 @@\n+new file\n");
        assertThat(data(changes).getStructValue().getFieldsOrThrow("files").getListValue().getValuesCount()).isEqualTo(2);
        // current_mode_update keeps its raw update in metadata.acp, as every other update does.
        Message mode = r.statusMessages().stream().filter(m -> StreamRecorder.text(m).contains("session mode is now"))
                .findFirst().orElseThrow();
        assertThat(mode.getMetadata().getFieldsOrThrow("acp").getStructValue().getFieldsOrThrow("currentModeId")
                .getStringValue()).isEqualTo("ask");
        // The budget runs across the conversation's turns.
        Struct second = data(bridge.run(c, "echo x").artifacts().get(0)).getStructValue();
        assertThat(second.getFieldsOrThrow("budget").getStructValue().getFieldsOrThrow("totalTokens").getNumberValue())
                .isEqualTo(30);
    }

    @ParameterizedTest
    @CsvSource({"refusal,TASK_STATE_REJECTED,false", "max_tokens,TASK_STATE_COMPLETED,true",
        "max_turn_requests,TASK_STATE_COMPLETED,true", "cancelled,TASK_STATE_CANCELED,false",
        "a_reason_from_the_future,TASK_STATE_COMPLETED,true"})
    void eachStopReasonEndsTheTaskInItsState(String stopReason, TaskState state, boolean artifact) throws Exception {
        StreamRecorder r = bridge.run("stop-reasons", "stop " + stopReason);
        assertThat(r.finalState()).isEqualTo(state);
        assertThat(r.artifacts()).hasSize(artifact ? 1 : 0);
        if (artifact) {
            assertThat(data(r.artifacts().get(0)).getStructValue().getFieldsOrThrow("stopReason").getStringValue())
                    .isEqualTo(stopReason);
            assertThat(r.lastSaid()).contains(stopReason);
        }
        if (state == TaskState.TASK_STATE_REJECTED) {
            assertThat(r.lastSaid()).contains("refused this task").contains("stopping");
        }
    }

    @Test
    void anAuthenticationErrorFailsTheTaskInPlainWords() throws Exception {
        // PEER (claude-agent-acp): without credentials, session/prompt answers -32000 "Authentication required".
        StreamRecorder r = bridge.run(ctx(), "auth");
        assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_FAILED);
        assertThat(r.lastSaid()).contains("is not logged in").contains("Authentication required")
                .contains("Log the fake agent in");
    }

    @Test
    void anAgentThatDiesMidTurnFailsTheTaskAndTheNextTaskGetsAFreshAgent() throws Exception {
        String c = ctx();
        long before = bridge.pids(c)[0];
        StreamRecorder r = bridge.run(c, "crash");
        assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_FAILED);
        assertThat(r.lastSaid()).contains("exited with status 3").contains("fresh agent");
        ProcessAssertions.assertGone(before);
        assertThat(bridge.pids(c)[0]).isNotEqualTo(before);
    }

    @Test
    void linesThatAreNotJsonRpcAreSkipped() throws Exception {
        StreamRecorder r = bridge.run(ctx(), "garbage");
        assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(answer(r)).isEqualTo("still here");
    }

    @Test
    void aCancelDuringTheTurnBecomesSessionCancelAndEndsCanceled() throws Exception {
        // PROTOCOL (ACP): session/cancel is a notification; the prompt then answers stopReason "cancelled".
        StreamRecorder r = bridge.send(ctx(), "", "wait").awaitSaid("waiting for a cancel");
        assertThat(bridge.cancel(r.taskId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        r.awaitEnd();
        assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(r.artifacts()).isEmpty();
        assertThat(Files.readString(journal)).contains("session/cancel");
    }

    @Test
    void aCancelWhileTheTaskWaitsForThePreviousTurnEndsItCanceledWithoutAPrompt() throws Exception {
        // README row "CancelTask while ... the task waits its turn": an ACP session runs one prompt at a
        // time, so the second task of a conversation queues; its cancel reaches it through the turn's
        // cancel signal, ends it at once, and the agent never sees its prompt.
        String context = ctx();
        StreamRecorder first = bridge.send(context, "", "wait").awaitSaid("waiting for a cancel");
        StreamRecorder queued = bridge.send(context, "", "echo queued-" + context);
        assertThat(bridge.cancel(queued.taskId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        queued.awaitEnd();
        assertThat(queued.finalState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(queued.lastSaid()).contains("while it waited for the previous turn");
        assertThat(first.kinds()).doesNotContain("status:CANCELED");

        assertThat(bridge.cancel(first.taskId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        first.awaitEnd();
        assertThat(Files.readString(journal)).doesNotContain("queued-" + context);
    }

    @Test
    void aTurnThatEndsNormallyDespiteTheCancelKeepsItsArtifactAndEndsCanceled() throws Exception {
        StreamRecorder r = bridge.send(ctx(), "", "wait-ignore").awaitSaid("waiting for a cancel");
        assertThat(bridge.cancel(r.taskId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        r.awaitEnd();
        assertThat(r.kinds()).containsSubsequence("artifact:answer", "status:CANCELED");
        assertThat(answer(r)).contains("cancel seen");
    }

    @Test
    void permissionVerdictsReachTheCallerInBothDirections() throws Exception {
        String c = ctx();
        StreamRecorder allowed = bridge.run(c, "permission edit notes.txt");
        assertThat(allowed.said()).anySatisfy(s -> assertThat(s).startsWith("Allowed: "));
        assertThat(answer(allowed)).isEqualTo("permission: selected yes");
        assertThat(allowed.lastSaid()).doesNotContain("refused");

        StreamRecorder refused = bridge.run(c, "permission edit /etc/hosts");
        assertThat(answer(refused)).isEqualTo("permission: selected no");
        assertThat(refused.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(refused.lastSaid()).contains("Legate refused 1 request").contains("/etc/hosts")
                .contains("outside the session root");
        String work = Files.readString(dir.resolve("logs").resolve(BridgeLogs.WORK), StandardCharsets.UTF_8);
        assertThat(work).contains("\"event\":\"permission\",\"contextId\":\"" + c + "\",\"taskId\":\"" + refused.taskId()
                + "\",\"sessionId\":\"sess-");
        assertThat(Files.readString(dir.resolve("logs").resolve(BridgeLogs.CALLS))).contains("\"event\":\"prompt.stop\"")
                .contains("\"stopReason\":\"end_turn\"");
    }

    @Test
    void filesAreServedOnlyInsideTheSessionRoot() throws Exception {
        StreamRecorder inside = bridge.run(ctx(), "write notes/a.txt first\nsecond");
        assertThat(answer(inside)).isEqualTo("read back: first\n");

        Path outside = dir.resolve("outside.txt");
        StreamRecorder refused = bridge.run(ctx(), "write " + outside + " stolen");
        assertThat(answer(refused)).startsWith("write error -32602");
        assertThat(refused.lastSaid()).contains("Legate refused 1 request").contains("fs/write_text_file");
        assertThat(outside).doesNotExist();
    }

    private static long prompts() throws Exception {
        return Files.readAllLines(journal).stream().filter(l -> l.startsWith("session/prompt")).count();
    }
}
