package legate.revisor;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.time.Duration;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.CancelSignal;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;

/**
 * Revisor's turn: ask for text when there is none, otherwise report progress twice, publish the
 * {@code text-stats} artifact and complete. There is no model behind it, so what a client sees is
 * the A2A protocol itself.
 *
 * <p>The pause after each progress step ({@code stepDelay}) lets a person watch the states go by
 * and gives a cancel somewhere to land: it waits on the turn's cancel signal, so a cancel ends it at
 * once. Tests pass zero or a short delay.
 */
public final class RevisorExecutor implements AgentExecutor {
    public static final String ARTIFACT_ID = "text-stats";

    private final Duration stepDelay;

    public RevisorExecutor(Duration stepDelay) {
        this.stepDelay = stepDelay;
    }

    @Override
    public void execute(RequestContext context, EventSink events) throws InterruptedException {
        CancelSignal cancel = context.cancel();
        // PROTOCOL (A2A §3.1.2): the first event of every turn is the Task, a continuation included.
        events.task(context.initialTask());
        String text = context.text();
        if (text.isBlank()) {
            // PROTOCOL (A2A §3.1.3): INPUT_REQUIRED keeps the task open; a reply with this taskId resumes it.
            events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText(
                    "Send me some text and I will count its words, characters and sentences."));
            return;
        }
        events.status(TaskState.TASK_STATE_WORKING, events.agentText("Counting words, characters and sentences…"));
        if (cancel.await(stepDelay)) {
            events.status(TaskState.TASK_STATE_CANCELED, events.agentText("Canceled before counting."));
            return;
        }
        TextStats stats = TextStats.of(text);
        events.status(TaskState.TASK_STATE_WORKING, events.agentText("Finding the most frequent words…"));
        if (cancel.await(stepDelay)) {
            events.status(TaskState.TASK_STATE_CANCELED, events.agentText("Canceled before the report."));
            return;
        }
        events.artifact(artifact(stats), false, true);
        events.status(TaskState.TASK_STATE_COMPLETED, null);
    }


    static Artifact artifact(TextStats stats) {
        ListValue.Builder top = ListValue.newBuilder();
        for (TextStats.WordCount w : stats.topWords()) {
            top.addValues(Value.newBuilder().setStructValue(Struct.newBuilder()
                    .putFields("word", Value.newBuilder().setStringValue(w.word()).build())
                    .putFields("count", number(w.count()))));
        }
        Struct data = Struct.newBuilder()
                .putFields("characters", number(stats.characters()))
                .putFields("words", number(stats.words()))
                .putFields("sentences", number(stats.sentences()))
                .putFields("averageWordLength", number(stats.averageWordLength()))
                .putFields("topWords", Value.newBuilder().setListValue(top).build())
                .build();
        return Artifact.newBuilder()
                .setArtifactId(ARTIFACT_ID)
                .setName(ARTIFACT_ID)
                .setDescription("Word, character and sentence counts, and the most frequent words")
                .addParts(Part.newBuilder().setText(stats.summary()).setMediaType("text/plain"))
                .addParts(Part.newBuilder().setData(Value.newBuilder().setStructValue(data)).setMediaType("application/json"))
                .build();
    }

    private static Value number(double n) {
        return Value.newBuilder().setNumberValue(n).build();
    }
}
