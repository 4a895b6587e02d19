package legate.a2a.client.internal;

import legate.a2a.client.StreamEnd;
import legate.a2a.client.StreamListener;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;

/**
 * Where one A2A stream stands as its listener has seen it, across every response that carried it:
 * the first one and each SubscribeToTask that resumed it. It hands each event to the listener,
 * keeps the task's id and state and the last event id, and tells a finished turn from a stream
 * closed too soon. Transport-neutral; single-use, one thread.
 *
 * <p>PROTOCOL (A2A §3.1.2): a Message ends the stream and nothing follows a terminal state; the
 * turn is also over at INPUT_REQUIRED (PEER @a2a-js/sdk 1.2.0 closes there, and §11.7 allows
 * closing), so a server that keeps the connection open cannot hold the caller. AUTH_REQUIRED ends
 * the turn but keeps reading: credentials may arrive out of band and the task resume (§7.6.1).
 */
public final class StreamProgress {
    private final StreamListener listener;
    private String taskId;
    private String lastEventId;
    private int events;
    private TaskState lastState = TaskState.TASK_STATE_UNSPECIFIED;
    private StreamEnd.How ended;
    private boolean snapshotEndsTurn;
    private boolean catchingUp;

    /**
     * @param taskId the task when it is known before the first event (SubscribeToTask), else null
     * @param lastEventId the event the stream starts after ({@code Last-Event-ID}), else null
     */
    public StreamProgress(StreamListener listener, String taskId, String lastEventId) {
        this.listener = listener;
        this.taskId = taskId;
        this.lastEventId = lastEventId;
    }

    /**
     * A response of this stream begins.
     *
     * @param subscription true for SubscribeToTask, whose Task snapshot states where the task is;
     *     false for SendStreamingMessage, where a continuation opens with the stored task still in
     *     the INPUT_REQUIRED that this very message answers
     */
    void open(boolean subscription) {
        snapshotEndsTurn = subscription;
        ended = null;
        catchingUp = lastEventId != null;
    }

    /** One event of the current response, with its SSE event id (null when none); false stops reading. */
    boolean deliver(StreamResponse event, String eventId) {
        if (catchingUp && isRepeat(event, eventId)) {
            return true;
        }
        catchingUp = false;
        events++;
        switch (event.getPayloadCase()) {
            case TASK -> {
                identify(event.getTask().getId());
                lastState = event.getTask().getStatus().getState();
                boolean over = TaskStates.isTerminal(lastState) || (snapshotEndsTurn && TaskStates.isInterrupted(lastState));
                ended = over ? StreamEnd.How.TURN_ENDED : null;
            }
            case STATUS_UPDATE -> {
                identify(event.getStatusUpdate().getTaskId());
                lastState = event.getStatusUpdate().getStatus().getState();
                ended = TaskStates.endsTurn(lastState) ? StreamEnd.How.TURN_ENDED : null;
            }
            case MESSAGE -> ended = StreamEnd.How.MESSAGE;
            case ARTIFACT_UPDATE -> identify(event.getArtifactUpdate().getTaskId());
            case PAYLOAD_NOT_SET -> {
                // An unknown payload (a newer peer) moves nothing and is passed on.
            }
        }
        if (eventId != null) {
            lastEventId = eventId;
        }
        if (!listener.onEvent(event, eventId)) {
            if (ended == null) {
                ended = StreamEnd.How.STOPPED;
            }
            return false;
        }
        // AUTH_REQUIRED ends the turn for the caller, but the stream may yet carry the resumption.
        return ended == null || (ended == StreamEnd.How.TURN_ENDED && lastState == TaskState.TASK_STATE_AUTH_REQUIRED);
    }

    /** How the current response ended when it ended without an error. */
    StreamEnd end() {
        return new StreamEnd(ended == null ? StreamEnd.How.CLOSED_EARLY : ended, events, lastState);
    }

    /** Whether the stream can be picked up again: a task and an event id are known and the turn is not over. */
    boolean resumable() {
        return ended == null && taskId != null && !taskId.isEmpty() && lastEventId != null;
    }

    /** The task the stream belongs to, or null before any event named it. */
    String taskId() {
        return taskId;
    }

    /** The id of the last event the listener received (or the one the stream started after), or null. */
    String lastEventId() {
        return lastEventId;
    }

    /** How many events the listener received, over every response. */
    int events() {
        return events;
    }

    StreamListener listener() {
        return listener;
    }

    private void identify(String id) {
        if (!id.isEmpty()) {
            taskId = id;
        }
    }

    /**
     * An event a resumed response repeats: its id is not after the one the response started after.
     * Only the leading run is checked, since a Legate agent replays strictly after the id and an id
     * persists over frames that carry none (HTML §9.2.6). A Task is never a repeat: it is the
     * snapshot an agent sends when it cannot replay from the id, and states where the task stands.
     */
    private boolean isRepeat(StreamResponse event, String eventId) {
        if (eventId == null || event.getPayloadCase() == StreamResponse.PayloadCase.TASK) {
            return false;
        }
        if (eventId.equals(lastEventId)) {
            return true;
        }
        try {
            return Long.parseLong(eventId) <= Long.parseLong(lastEventId);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
