package legate.tck;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;

/**
 * The TCK's scenarios (a2a-tck, branch 1.0-dev, {@code scenarios/core_operations.feature} and
 * {@code scenarios/streaming.feature}) as a table: which prefix asks for which turn. The texts,
 * file names, media types and data are the ones the scenarios name, because the TCK's tests
 * compare them (for instance "Generated text content" for {@code tck-artifact-text}).
 *
 * <p>Prefixes overlap ({@code tck-artifact-file} and {@code tck-artifact-file-url}), so the
 * longest prefix that matches wins, whatever the order of the table.
 */
final class TckScenarios {
    /** What a message without a scripted prefix gets: COMPLETED, with this text and the message id. */
    static final String UNHANDLED = "Unhandled messageId prefix: ";

    private static final TaskState WORKING = TaskState.TASK_STATE_WORKING;
    private static final TaskState COMPLETED = TaskState.TASK_STATE_COMPLETED;
    private static final Step.Status START = new Step.Status(WORKING, null);
    private static final Step.Status DONE = new Step.Status(COMPLETED, null);

    // The scenarios name a file part by name and media type only; its bytes are "tck", as in the TCK's generated SUTs.
    static final Part FILE = Part.newBuilder().setRaw(ByteString.copyFrom("tck", StandardCharsets.UTF_8))
            .setFilename("output.txt").setMediaType("text/plain").build();
    static final Part FILE_URL = Part.newBuilder().setUrl("https://example.com/output.txt")
            .setFilename("output.txt").setMediaType("text/plain").build();
    static final Part DATA = Part.newBuilder().setData(Value.newBuilder().setStructValue(Struct.newBuilder()
            .putFields("key", Value.newBuilder().setStringValue("value").build())
            .putFields("count", Value.newBuilder().setNumberValue(42).build()))).build();

    static final List<Scenario> ALL = List.of(
            // core_operations.feature
            new Scenario("tck-complete-task", List.of(new Step.Status(COMPLETED, "Hello from TCK"))),
            new Scenario("tck-artifact-text", List.of(Step.Artifact.whole(1, text("Generated text content")), DONE)),
            new Scenario("tck-artifact-file", List.of(Step.Artifact.whole(1, FILE), DONE)),
            new Scenario("tck-artifact-file-url", List.of(Step.Artifact.whole(1, FILE_URL), DONE)),
            new Scenario("tck-artifact-data", List.of(Step.Artifact.whole(1, DATA), DONE)),
            new Scenario("tck-message-response", List.of(new Step.Reply("Direct message response"))),
            new Scenario("tck-input-required", List.of(new Step.Status(TaskState.TASK_STATE_INPUT_REQUIRED, null))),
            new Scenario("tck-reject-task", List.of(new Step.Reject("rejected"))),
            // streaming.feature
            streamed("tck-stream-001", text("Stream hello from TCK")),
            new Scenario("tck-stream-002", List.of(DONE)),
            streamed("tck-stream-003", text("Stream task lifecycle")),
            streamed("tck-stream-ordering-001", text("Ordered output")),
            streamed("tck-stream-artifact-text", text("Streamed text content")),
            streamed("tck-stream-artifact-file", FILE),
            new Scenario("tck-stream-artifact-chunked", List.of(START,
                    new Step.Artifact(1, List.of(text("chunk-1 ")), false, false),
                    new Step.Artifact(1, List.of(text("chunk-2")), true, true),
                    DONE)),
            // docs/SUT_REQUIREMENTS.md: the task must still run 2 x TCK_STREAMING_TIMEOUT after it starts.
            new Scenario("test-resubscribe-message-id", List.of(START, new Step.Pause(2), DONE)));

    private TckScenarios() {
    }

    /** The scenario whose prefix is the longest that {@code messageId} starts with. */
    static Optional<Scenario> forMessageId(String messageId) {
        Scenario best = null;
        for (Scenario s : ALL) {
            if (s.matches(messageId) && (best == null || s.prefix().length() > best.prefix().length())) {
                best = s;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The default turn of the TCK's SUTs: a message no scenario names completes, saying so. */
    static Scenario unhandled(String messageId) {
        return new Scenario("", List.of(new Step.Status(COMPLETED, UNHANDLED + messageId)));
    }

    private static Scenario streamed(String prefix, Part part) {
        return new Scenario(prefix, List.of(START, Step.Artifact.whole(1, part), DONE));
    }

    static Part text(String text) {
        return Part.newBuilder().setText(text).build();
    }
}
