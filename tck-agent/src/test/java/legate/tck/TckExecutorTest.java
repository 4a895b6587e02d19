package legate.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import legate.a2a.client.A2aClient;
import legate.a2a.client.StreamEnd;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The TCK's scenarios (a2a-tck 1.0-dev, scenarios/*.feature) as the TCK meets them: through a real
 * Legate server on a loopback port, over JSON-RPC, with Legate's own client. Each message id is a
 * scenario prefix followed by a suffix, as the TCK's {@code tck_id} writes them.
 */
class TckExecutorTest {
    // The TCK's TCK_STREAMING_TIMEOUT, small here: the long-running scenario lasts twice this.
    private static final Duration STREAMING_TIMEOUT = Duration.ofMillis(400);

    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static A2aClient client;

    @BeforeAll
    static void start() throws Exception {
        AgentServer server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", 1 << 20, Duration.ofSeconds(2)),
                port -> TckCard.build(null, "http://127.0.0.1:" + port + "/"), new TckExecutor(STREAMING_TIMEOUT));
        int port = cleanup.start("the TCK agent", server, AgentServer::start, AgentServer::openStreams);
        client = cleanup.register(A2aClient.connect(URI.create("http://127.0.0.1:" + port + "/")));
    }

    private static Message message(String prefix) {
        return message(prefix, "");
    }

    private static Message message(String prefix, String taskId) {
        return Message.newBuilder().setMessageId(prefix + "-" + UUID.randomUUID().toString().substring(0, 8))
                .setRole(Role.ROLE_USER).setTaskId(taskId)
                .addParts(Part.newBuilder().setText("TCK test")).build();
    }

    private static Task sent(String prefix) {
        SendMessageResponse r = client.send(message(prefix));
        assertThat(r.hasTask()).as("a task for " + prefix).isTrue();
        return r.getTask();
    }

    private static Part onlyPartOfOnlyArtifact(Task t) {
        assertThat(t.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(t.getArtifactsList()).hasSize(1);
        Artifact a = t.getArtifacts(0);
        assertThat(a.getArtifactId()).isNotBlank();
        assertThat(a.getPartsList()).hasSize(1);
        return a.getParts(0);
    }

    @Test
    void completeTaskCompletesWithTheScenariosMessage() {
        Task t = sent("tck-complete-task");
        assertThat(t.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(t.getStatus().getMessage().getRole()).isEqualTo(Role.ROLE_AGENT);
        assertThat(t.getStatus().getMessage().getParts(0).getText()).isEqualTo("Hello from TCK");
    }

    @Test
    void artifactScenariosCarryTheTextFileUrlAndDataTheTckCompares() {
        assertThat(onlyPartOfOnlyArtifact(sent("tck-artifact-text")).getText()).isEqualTo("Generated text content");

        Part file = onlyPartOfOnlyArtifact(sent("tck-artifact-file"));
        assertThat(file.getRaw().toStringUtf8()).isEqualTo("tck");
        assertThat(file.getFilename()).isEqualTo("output.txt");
        assertThat(file.getMediaType()).isEqualTo("text/plain");

        // tck-artifact-file-url starts with tck-artifact-file: the longer prefix must win.
        Part url = onlyPartOfOnlyArtifact(sent("tck-artifact-file-url"));
        assertThat(url.getUrl()).isEqualTo("https://example.com/output.txt");
        assertThat(url.getFilename()).isEqualTo("output.txt");

        Part data = onlyPartOfOnlyArtifact(sent("tck-artifact-data"));
        assertThat(data.getData().getStructValue().getFieldsOrThrow("key").getStringValue()).isEqualTo("value");
        assertThat(data.getData().getStructValue().getFieldsOrThrow("count").getNumberValue()).isEqualTo(42);
    }

    @Test
    void messageResponseAnswersWithAMessageAndNoTask() {
        SendMessageResponse r = client.send(message("tck-message-response"));
        assertThat(r.hasMessage()).isTrue();
        assertThat(r.getMessage().getRole()).isEqualTo(Role.ROLE_AGENT);
        assertThat(r.getMessage().getTaskId()).isEmpty();
        assertThat(r.getMessage().getParts(0).getText()).isEqualTo("Direct message response");
    }

    @Test
    void inputRequiredParksTheTaskAndAReplyIntoItCompletesItWithTheWholeHistory() {
        Task parked = sent("tck-input-required");
        assertThat(parked.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);

        Task done = client.send(message("tck-complete-task", parked.getId())).getTask();
        assertThat(done.getId()).isEqualTo(parked.getId());
        assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(done.getHistoryList()).extracting(Message::getMessageId)
                .filteredOn(id -> id.startsWith("tck-")).hasSize(2);
    }

    @Test
    void aParkedTaskIsCanceled() {
        Task parked = sent("tck-input-required");
        assertThat(client.cancelTask(parked.getId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(client.getTask(parked.getId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
    }

    @Test
    void rejectTaskEndsRejectedWithTheReason() {
        Task t = sent("tck-reject-task");
        assertThat(t.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_REJECTED);
        assertThat(t.getStatus().getMessage().getParts(0).getText()).isEqualTo("rejected");
    }

    @Test
    void aMessageNoScenarioNamesCompletesSayingSo() {
        Message m = message("tck-dm-test-001");
        Task t = client.send(m).getTask();
        assertThat(t.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(t.getStatus().getMessage().getParts(0).getText())
                .isEqualTo("Unhandled messageId prefix: " + m.getMessageId());
    }

    @Test
    void streamScenariosStreamWorkingTheArtifactThenCompleted() {
        for (String[] s : new String[][] {{"tck-stream-001", "Stream hello from TCK"},
                {"tck-stream-003", "Stream task lifecycle"}, {"tck-stream-ordering-001", "Ordered output"},
                {"tck-stream-artifact-text", "Streamed text content"}}) {
            StreamRecorder events = new StreamRecorder();
            StreamEnd end = client.stream(message(s[0]), events::onEvent);
            assertThat(end.how()).as(s[0]).isEqualTo(StreamEnd.How.TURN_ENDED);
            assertThat(events.events()).as(s[0]).hasSize(4);
            assertThat(StreamRecorder.kind(events.events().get(0))).isEqualTo("task:SUBMITTED");
            assertThat(events.states()).as(s[0])
                    .containsExactly(TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED);
            assertThat(events.events().get(2).getArtifactUpdate().getArtifact().getParts(0).getText()).isEqualTo(s[1]);
        }
        StreamRecorder file = new StreamRecorder();
        client.stream(message("tck-stream-artifact-file"), file::onEvent);
        assertThat(file.events().get(2).getArtifactUpdate().getArtifact().getParts(0).getFilename())
                .isEqualTo("output.txt");

        StreamRecorder done = new StreamRecorder();
        client.stream(message("tck-stream-002"), done::onEvent);
        assertThat(done.kinds()).containsExactly("task:SUBMITTED", "status:COMPLETED");
    }

    @Test
    void theChunkedArtifactArrivesInTwoChunksOfOneArtifact() {
        StreamRecorder events = new StreamRecorder();
        client.stream(message("tck-stream-artifact-chunked"), events::onEvent);
        TaskArtifactUpdateEvent first = events.events().get(2).getArtifactUpdate();
        TaskArtifactUpdateEvent last = events.events().get(3).getArtifactUpdate();
        assertThat(first.getArtifact().getParts(0).getText()).isEqualTo("chunk-1 ");
        assertThat(first.getAppend()).isFalse();
        assertThat(first.getLastChunk()).isFalse();
        assertThat(last.getArtifact().getParts(0).getText()).isEqualTo("chunk-2");
        assertThat(last.getAppend()).isTrue();
        assertThat(last.getLastChunk()).isTrue();
        assertThat(last.getArtifact().getArtifactId()).isEqualTo(first.getArtifact().getArtifactId());
        assertThat(events.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);

        // PROTOCOL (A2A §4.2.2): append extends the artifact, so the stored task holds one artifact of both chunks.
        Task stored = client.getTask(events.events().get(0).getTask().getId());
        assertThat(stored.getArtifactsList()).singleElement().satisfies(a -> assertThat(a.getPartsList())
                .extracting(Part::getText).containsExactly("chunk-1 ", "chunk-2"));
    }

    @Test
    void theLongRunningTaskRunsTwiceTheStreamingTimeoutThenCompletes() {
        StreamRecorder events = new StreamRecorder();
        long start = System.nanoTime();
        client.stream(message("test-resubscribe-message-id"), events::onEvent);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(events.kinds()).containsExactly("task:SUBMITTED", "status:WORKING", "status:COMPLETED");
        assertThat(took).isGreaterThanOrEqualTo(STREAMING_TIMEOUT.multipliedBy(2));
    }

    @Test
    void aCancelEndsTheLongRunningTaskAtOnce() throws Exception {
        // A timeout far longer than the test may take: only the cancel can end the wait in time.
        AgentServer slow = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", 1 << 20, Duration.ofSeconds(2)),
                port -> TckCard.build(null, "http://127.0.0.1:" + port + "/"), new TckExecutor(Duration.ofMinutes(10)));
        int port = cleanup.start("a slow TCK agent", slow, AgentServer::start, AgentServer::openStreams);
        try (A2aClient c = A2aClient.connect(URI.create("http://127.0.0.1:" + port + "/"))) {
            Task working = c.sendNonBlocking(message("test-resubscribe-message-id")).getTask();
            StreamRecorder follow = new StreamRecorder();
            Thread subscriber = Thread.ofVirtual().start(() -> c.subscribe(working.getId(), follow::onEvent));
            follow.awaitState(TaskState.TASK_STATE_WORKING);

            Task canceled = c.cancelTask(working.getId());

            assertThat(canceled.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
            subscriber.join(Duration.ofSeconds(30));
            assertThat(follow.finalState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        }
    }

    @Test
    void theStreamingTimeoutIsReadAsTheTckWritesIt() {
        assertThat(TckExecutor.streamingTimeout("2.0")).isEqualTo(Duration.ofSeconds(2));
        assertThat(TckExecutor.streamingTimeout(" 0.5 ")).isEqualTo(Duration.ofMillis(500));
        for (String bad : new String[] {"", "two", "-1", "NaN", "1e9"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> TckExecutor.streamingTimeout(bad))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TCK_STREAMING_TIMEOUT");
        }
    }
}
