package legate.a2a.client.internal;

import com.google.protobuf.Message;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import legate.a2a.client.AgentErrorException;
import legate.a2a.client.InvalidResponseException;
import legate.a2a.client.ResumeAttempt;
import legate.a2a.client.Resumption;
import legate.a2a.client.StreamEnd;
import legate.a2a.client.TransportException;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aMethods;

/**
 * An A2A stream that outlives its connection: when a response is cut (a broken connection, or a
 * clean close before the turn ended), it subscribes again with {@code Last-Event-ID} and goes on
 * feeding the same {@link StreamProgress}, so the listener sees one stream with no event twice.
 *
 * <p>It resumes only from an agent that declared resumable streams, once the stream has named its
 * task and carried an event id, while the turn is not over, the listener agrees, the client is open
 * and the thread is not interrupted. Attempts are bounded by the {@link Resumption}; an attempt that
 * delivers an event starts the count again. A stream given up ends as the cut that started the
 * attempts would have ended it without them: the same {@link TransportException} kind (its message
 * saying what the attempts met) or the same {@link StreamEnd.How#CLOSED_EARLY}. An agent that answers
 * the resubscription with an A2A error (the task is gone, say) ends the attempts at once.
 */
public final class ResumableStream {
    private static final String CLOSED_EARLY = "the agent closed the stream before the turn ended";

    private final Transport transport;
    private final Resumption resumption;
    private final boolean agentResumes;
    private final BooleanSupplier clientClosed;
    private final Function<String, Message> resubscribe;

    /**
     * @param agentResumes whether the agent's card declares resumable streams
     * @param resubscribe the SubscribeToTask request for a task id
     */
    public ResumableStream(Transport transport, Resumption resumption, boolean agentResumes,
                           BooleanSupplier clientClosed, Function<String, Message> resubscribe) {
        this.transport = transport;
        this.resumption = resumption;
        this.agentResumes = agentResumes;
        this.clientClosed = clientClosed;
        this.resubscribe = resubscribe;
    }

    /** Whether a cut stream is resumed at all: the agent declared it and the client allows it. */
    public boolean enabled() {
        return agentResumes && resumption.enabled();
    }

    /** Runs the streaming call, resuming it as needed; returns when the stream ends for good. */
    public StreamEnd follow(String method, Message request, StreamProgress progress) {
        TransportException cut;
        try {
            StreamEnd end = transport.stream(method, request, progress);
            if (!end.closedEarly()) {
                return end;
            }
            cut = null;
        } catch (TransportException e) {
            if (e.kind() != TransportException.Kind.CUT) {
                throw e;
            }
            cut = e;
        }
        return resume(progress, cut);
    }

    /** @param cut the broken connection the attempts repair, or null for a stream closed early */
    private StreamEnd resume(StreamProgress progress, TransportException cut) {
        String why = cut == null ? CLOSED_EARLY : cut.getMessage();
        int attempt = 0;
        while (true) {
            if (!mayResume(progress)) {
                return givenUp(progress, cut, attempt == 0 ? null : "stopped (the client closed or the thread was interrupted)");
            }
            if (++attempt > resumption.attempts()) {
                return givenUp(progress, cut, "failed " + resumption.attempts() + " time(s), the last: " + why);
            }
            Duration delay = resumption.delay(attempt);
            if (!progress.listener().onResume(new ResumeAttempt(progress.taskId(), progress.lastEventId(), attempt,
                    resumption.attempts(), delay, why)) || !pause(delay)) {
                return givenUp(progress, cut, "was stopped by the listener");
            }
            int before = progress.events();
            try {
                StreamEnd end = transport.stream(A2aMethods.SUBSCRIBE_TO_TASK, resubscribe.apply(progress.taskId()), progress);
                if (!end.closedEarly()) {
                    return end;
                }
                if (progress.events() > before) {
                    cut = null;
                    attempt = 0;
                }
                why = CLOSED_EARLY;
            } catch (TransportException e) {
                if (progress.events() > before) {
                    cut = e;
                    attempt = 0;
                }
                why = e.getMessage();
            } catch (AgentErrorException | InvalidResponseException e) {
                if (progress.events() > before) {
                    throw e;
                }
                if (e instanceof AgentErrorException refusal && isFinal(refusal)) {
                    return givenUp(progress, cut, "was refused: the agent answered " + e.getMessage());
                }
                why = e.getMessage();
            }
        }
    }

    /**
     * Whether an error answering the resubscription will not change: an A2A or JSON-RPC error with a
     * meaning (the task is gone, subscribing is unsupported, the id is refused) ends the attempts.
     * PEER (legate tap, proxies): a gateway whose agent is down or restarting answers -32603 (with
     * HTTP 502) or a page that is not JSON-RPC until the agent is back, so those, and codes this build
     * does not know, are worth the next attempt.
     */
    private static boolean isFinal(AgentErrorException e) {
        return e.error().filter(known -> known != A2aError.INTERNAL).isPresent();
    }

    private boolean mayResume(StreamProgress progress) {
        return enabled() && progress.resumable() && !clientClosed.getAsBoolean() && !Thread.currentThread().isInterrupted();
    }

    /** The stream ends as the cut left it; {@code what} says how the attempts ended, null when none was made. */
    private static StreamEnd givenUp(StreamProgress progress, TransportException cut, String what) {
        if (cut == null) {
            return progress.end();
        }
        if (what == null) {
            throw cut;
        }
        throw new TransportException(cut.kind(), cut.target(), cut.getMessage() + "; resuming after event "
                + progress.lastEventId() + " " + what, cut);
    }

    /** Waits before an attempt; false when the thread was interrupted meanwhile. */
    private static boolean pause(Duration delay) {
        try {
            Thread.sleep(delay);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
