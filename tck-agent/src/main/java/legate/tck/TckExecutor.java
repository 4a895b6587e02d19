package legate.tck;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.EventSink;
import legate.a2a.server.RandomIds;
import legate.a2a.server.RequestContext;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Role;
import lf.a2a.v1.TaskState;

/**
 * The official TCK's system under test: each turn does what the TCK's scenario for the message's
 * id prefix says ({@link TckScenarios}), and a message no scenario names completes at once, as in
 * the TCK's own generated SUTs. Everything else the TCK checks (errors, capabilities, ids, history,
 * streams, cancel) is the server's, which is the point: the TCK then tests Legate, not this class.
 *
 * <p>A cancel reaches a waiting turn through the cancel signal and ends it CANCELED at once; a
 * parked task (INPUT_REQUIRED) is canceled by the server itself.
 */
public final class TckExecutor implements AgentExecutor {
    /** The TCK's own default of {@code TCK_STREAMING_TIMEOUT}: 2 seconds. */
    public static final Duration DEFAULT_STREAMING_TIMEOUT = Duration.ofSeconds(2);

    private final Duration streamingTimeout;

    /** @param streamingTimeout the TCK's {@code TCK_STREAMING_TIMEOUT}, which scales the scripted waits */
    public TckExecutor(Duration streamingTimeout) {
        if (streamingTimeout.isNegative()) {
            throw new IllegalArgumentException("the streaming timeout must not be negative: " + streamingTimeout);
        }
        this.streamingTimeout = streamingTimeout;
    }

    /**
     * The TCK's {@code TCK_STREAMING_TIMEOUT} as the TCK writes it: seconds, a decimal such as
     * {@code 2.0} or {@code 0.5}.
     *
     * @throws IllegalArgumentException when it is not a number of seconds from 0 to one day
     */
    public static Duration streamingTimeout(String seconds) {
        double s;
        try {
            s = Double.parseDouble(seconds.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("TCK_STREAMING_TIMEOUT is a number of seconds, not \"" + seconds + "\"");
        }
        if (!(s >= 0 && s <= 86_400)) {
            throw new IllegalArgumentException("TCK_STREAMING_TIMEOUT is from 0 to 86400 seconds, not " + seconds);
        }
        return Duration.ofMillis(Math.round(s * 1000));
    }

    @Override
    public void execute(RequestContext context, EventSink events) throws InterruptedException {
        String messageId = context.message().getMessageId();
        Scenario scenario = TckScenarios.forMessageId(messageId).orElseGet(() -> TckScenarios.unhandled(messageId));
        if (scenario.answersWithMessage() && !context.isContinuation()) {
            // PROTOCOL (A2A §3.1.1): the answer may be a Message, and then no task exists.
            events.message(reply(context, ((Step.Reply) scenario.steps().getFirst()).text()));
            return;
        }
        // PROTOCOL (A2A §3.1.2): the first event of a task's turn is the Task, a continuation included.
        events.task(context.initialTask());
        // A fresh id per artifact and turn: a later turn of the same task adds its artifacts, never replaces one.
        Map<Integer, String> artifactIds = new HashMap<>();
        for (Step step : scenario.steps()) {
            switch (step) {
                case Step.Status s -> events.status(s.state(), s.text() == null ? null : events.agentText(s.text()));
                case Step.Artifact a -> events.artifact(Artifact.newBuilder()
                        .setArtifactId(artifactIds.computeIfAbsent(a.chunkOf(), n -> RandomIds.next()))
                        .addAllParts(a.parts()).build(), a.append(), a.lastChunk());
                // A task that exists already cannot be answered by a bare Message: it completes with the reply.
                case Step.Reply r -> events.status(TaskState.TASK_STATE_COMPLETED, events.agentText(r.text()));
                case Step.Reject r -> events.status(TaskState.TASK_STATE_REJECTED, events.agentText(r.reason()));
                case Step.Pause p -> {
                    if (context.cancel().await(streamingTimeout.multipliedBy(p.timeoutMultiple()))) {
                        events.status(TaskState.TASK_STATE_CANCELED, events.agentText("Canceled while waiting."));
                        return;
                    }
                }
            }
        }
    }

    /** An agent message in the caller's context, tied to no task: none was created. */
    private static Message reply(RequestContext context, String text) {
        return Message.newBuilder()
                .setMessageId(RandomIds.next())
                .setRole(Role.ROLE_AGENT)
                .setContextId(context.contextId())
                .addParts(TckScenarios.text(text))
                .build();
    }
}
