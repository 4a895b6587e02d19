package legate.acp.bridge;

import static legate.acp.BridgeFixture.answer;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.acp.BridgeFixture;
import legate.acp.FakeAgents;
import legate.acp.adapter.ConversationRecords;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.permission.PermissionRules;
import legate.testsupport.Cleanup;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACP_PERMISSIONS=ask (README, "Asking the caller"): a request the built-in policy would refuse is
 * put to the A2A caller while the ACP prompt stays pending, and the caller's reply into the same
 * taskId answers it and the same turn goes on. FakeAcpAgent runs as a real child; its prompt
 * "permission edit /etc/hosts" asks for an edit outside the sandbox (offering yes/allow_once and
 * no/reject_once) and answers with the outcome it got.
 */
class AskTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static BridgeFixture bridge;
    /** A bridge whose questions wait 300 ms: the timeout, without waiting ten minutes. */
    private static BridgeFixture impatient;
    private static Path journal;

    @BeforeAll
    static void start() {
        journal = dir.resolve("journal.txt");
        BridgeLogs logs = new BridgeLogs(dir.resolve("logs"), 1 << 20, 2, Clock.systemUTC(), System.err);
        bridge = cleanup.register(new BridgeFixture(FakeAgents.backend("--journal", journal.toString()),
                dir.resolve("sandboxes"), ProcessLauncher.system(), PermissionRules.builtIn("default", false, true), logs,
                Clock.systemUTC(), Duration.ofMinutes(5), ConversationRecords.NONE));
        impatient = cleanup.register(new BridgeFixture(FakeAgents.backend(), dir.resolve("sandboxes2"),
                ProcessLauncher.system(), PermissionRules.builtIn("default", false, true), BridgeLogs.disabled(),
                Clock.systemUTC(), Duration.ofMillis(300), ConversationRecords.NONE));
    }

    private static String ctx() {
        return UUID.randomUUID().toString();
    }

    /** The permission data part of a question: {toolCall, options}. */
    private static Struct permission(Message question) {
        Part data = question.getPartsList().stream().filter(Part::hasData).findFirst().orElseThrow();
        return data.getData().getStructValue().getFieldsOrThrow("permission").getStructValue();
    }

    private static Message lastStatus(StreamRecorder r) {
        List<Message> all = r.statusMessages();
        return all.get(all.size() - 1);
    }

    @Test
    void aRefusedEditIsAskedAndYesAllowsItInTheSameTurn() throws Exception {
        String c = ctx();
        StreamRecorder asked = bridge.send(c, "", "permission edit /etc/hosts").awaitEnd();
        assertThat(asked.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        Message question = lastStatus(asked);
        assertThat(StreamRecorder.text(question)).contains("asks permission").contains("Change /etc/hosts")
                .contains("(edit)").contains("yes: Allow (allow_once)").contains("no: Reject (reject_once)");
        // The options exactly as the agent offered them.
        Struct p = permission(question);
        assertThat(p.getFieldsOrThrow("paths").getListValue().getValues(0).getStringValue()).isEqualTo("/etc/hosts");
        // The tool call exactly as the agent sent it.
        assertThat(p.getFieldsOrThrow("toolCall").getStructValue().getFieldsOrThrow("locations").getListValue()
                .getValues(0).getStructValue().getFieldsOrThrow("path").getStringValue()).isEqualTo("/etc/hosts");
        List<Value> options = p.getFieldsOrThrow("options").getListValue().getValuesList();
        assertThat(options).extracting(o -> o.getStructValue().getFieldsOrThrow("optionId").getStringValue())
                .containsExactly("yes", "no");
        assertThat(options.get(1).getStructValue().getFieldsOrThrow("kind").getStringValue()).isEqualTo("reject_once");

        StreamRecorder answered = bridge.send(c, asked.taskId(), "yes").awaitEnd();
        assertThat(answered.taskId()).isEqualTo(asked.taskId());
        assertThat(answered.kinds().get(0)).startsWith("task");
        assertThat(answered.states()).startsWith(TaskState.TASK_STATE_WORKING).endsWith(TaskState.TASK_STATE_COMPLETED);
        assertThat(answered.said()).anySatisfy(s -> assertThat(s).startsWith("Answered: ").contains("'Allow' (yes"));
        // The same prompt went on: the agent got the caller's option.
        assertThat(answer(answered)).isEqualTo("permission: selected yes");
        assertThat(answered.lastSaid()).doesNotContain("refused");
        String work = Files.readString(dir.resolve("logs").resolve(BridgeLogs.WORK), StandardCharsets.UTF_8);
        assertThat(work).contains("\"action\":\"ask\"").contains("\"rule\":\"the default of the built-in policy (ask)\"")
                .contains("\"asked\":true");
    }

    @Test
    void aDataPartAnswerNamesTheOptionAndAnUnknownAnswerIsAskedAgain() throws Exception {
        String c = ctx();
        StreamRecorder asked = bridge.send(c, "", "permission edit /etc/hosts").awaitEnd();
        StreamRecorder unclear = bridge.send(c, asked.taskId(), "perhaps later").awaitEnd();
        assertThat(unclear.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(unclear.lastSaid()).contains("names none of the options").contains("yes: Allow");

        Part choice = Part.newBuilder().setData(Value.newBuilder().setStructValue(Struct.newBuilder()
                .putFields("optionId", Value.newBuilder().setStringValue("no").build()))).build();
        StreamRecorder refused = bridge.sendParts(c, asked.taskId(), List.of(choice)).awaitEnd();
        assertThat(refused.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(answer(refused)).isEqualTo("permission: selected no");
        // A refusal by the caller is still a refusal: listed in the final status message.
        assertThat(refused.lastSaid()).contains("Legate refused 1 request").contains("the caller chose 'Reject'");
    }

    @Test
    void twoRequestsInOneTurnAreAskedOneAtATimeInOrder() throws Exception {
        String c = ctx();
        StreamRecorder first = bridge.send(c, "", "permissions").awaitEnd();
        assertThat(first.lastSaid()).contains("Change /etc/one");
        StreamRecorder second = bridge.send(c, first.taskId(), "yes").awaitEnd();
        assertThat(second.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(second.said()).containsSubsequence("update between the two questions\n");
        assertThat(second.lastSaid()).contains("Change /etc/two");
        StreamRecorder done = bridge.send(c, first.taskId(), "no").awaitEnd();
        assertThat(done.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(answer(done)).endsWith("permissions: selected yes / selected no");
    }

    @Test
    void aCancelWhileAskingCancelsTheTurn() throws Exception {
        String c = ctx();
        StreamRecorder asked = bridge.send(c, "", "permission edit /etc/hosts").awaitEnd();
        Task canceled = bridge.cancel(asked.taskId());
        // PROTOCOL (A2A §3.1.5): CancelTask answers with the task CANCELED; the agent was told with session/cancel
        // and its pending permission request was answered "cancelled", so its turn ended "cancelled".
        assertThat(canceled.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(Files.readString(journal)).contains("session/cancel");
        // The conversation is free again: the next task runs.
        assertThat(answer(bridge.run(c, "echo after"))).isEqualTo("after");
    }

    @Test
    void anAnswerToAQuestionWhoseTurnARestartEndedFailsInsteadOfBecomingAPrompt() throws Exception {
        // DEFECT (found while building ask): after a restart, "yes" to a question the dead turn had asked went
        // to the agent as a new prompt. The stored task still asks, but nobody waits for the answer.
        InMemoryTaskStore store = new InMemoryTaskStore();
        BridgeFixture before = new BridgeFixture(FakeAgents.backend(), dir.resolve("restart"), ProcessLauncher.system(),
                PermissionRules.builtIn("default", false, true), BridgeLogs.disabled(), Clock.systemUTC(),
                Duration.ofMinutes(5), ConversationRecords.NONE, store);
        StreamRecorder asked = before.send(ctx(), "", "permission edit /etc/hosts").awaitEnd();
        assertThat(asked.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        // The process "stops": its server abandons the turn, leaving the task as stored.
        before.handler.close();
        before.close();

        BridgeFixture after = cleanup.register(new BridgeFixture(FakeAgents.backend(), dir.resolve("restart"),
                ProcessLauncher.system(), PermissionRules.builtIn("default", false, true), BridgeLogs.disabled(),
                Clock.systemUTC(), Duration.ofMinutes(5), ConversationRecords.NONE, store));
        StreamRecorder answered = after.send(asked.contextId(), asked.taskId(), "yes").awaitEnd();
        assertThat(answered.finalState()).isEqualTo(TaskState.TASK_STATE_FAILED);
        assertThat(answered.lastSaid()).contains("no longer running").contains("Send the request again");
        assertThat(answered.artifacts()).as("nothing was prompted").isEmpty();
    }

    @Test
    void noAnswerInTimeIsRefusedWithTheAgentsOwnRefusalAndNoted() throws Exception {
        StreamRecorder asked = impatient.send(ctx(), "", "permission edit /etc/hosts").awaitEnd();
        assertThat(asked.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(impatient.executionsEnded.tryAcquire(30, TimeUnit.SECONDS)).as("the turn went on and ended").isTrue();
        Task done = impatient.handler.getTask(GetTaskRequest.newBuilder().setId(asked.taskId()).build());
        assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        // Never an approval: the agent got its reject_once option.
        assertThat(done.getArtifacts(0).getParts(0).getText()).isEqualTo("permission: selected no");
        assertThat(StreamRecorder.text(done.getStatus().getMessage())).contains("was not answered within 300 ms")
                .contains("Legate refused 1 request");
    }
}
