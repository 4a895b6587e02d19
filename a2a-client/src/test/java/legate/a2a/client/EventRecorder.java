package legate.a2a.client;

import java.util.ArrayList;
import java.util.List;
import lf.a2a.v1.StreamResponse;

/** Records the events of a stream in arrival order and names each by kind and state, for assertions. */
final class EventRecorder implements StreamListener {
    private final List<StreamResponse> events = new ArrayList<>();

    @Override
    public boolean onEvent(StreamResponse event) {
        events.add(event);
        return true;
    }

    List<StreamResponse> events() {
        return events;
    }

    /** {@code task:SUBMITTED}, {@code status:WORKING}, {@code artifact:text-stats}, {@code message}. */
    List<String> kinds() {
        return events.stream().map(EventRecorder::kind).toList();
    }

    static String kind(StreamResponse e) {
        return switch (e.getPayloadCase()) {
            case TASK -> "task:" + e.getTask().getStatus().getState().name().replace("TASK_STATE_", "");
            case STATUS_UPDATE -> "status:" + e.getStatusUpdate().getStatus().getState().name().replace("TASK_STATE_", "");
            case ARTIFACT_UPDATE -> "artifact:" + e.getArtifactUpdate().getArtifact().getArtifactId();
            case MESSAGE -> "message";
            case PAYLOAD_NOT_SET -> "unknown";
        };
    }

    /** The task id every task-bearing event names. */
    List<String> taskIds() {
        return events.stream().map(e -> switch (e.getPayloadCase()) {
            case TASK -> e.getTask().getId();
            case STATUS_UPDATE -> e.getStatusUpdate().getTaskId();
            case ARTIFACT_UPDATE -> e.getArtifactUpdate().getTaskId();
            case MESSAGE -> e.getMessage().getTaskId();
            case PAYLOAD_NOT_SET -> "";
        }).toList();
    }
}
