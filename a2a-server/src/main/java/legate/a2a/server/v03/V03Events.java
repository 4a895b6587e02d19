package legate.a2a.server.v03;

import static legate.a2a.server.v03.V03Input.invalid;
import static legate.a2a.server.v03.V03Input.object;
import static legate.a2a.server.v03.V03Input.optionalBoolean;
import static legate.a2a.server.v03.V03Input.optionalObject;
import static legate.a2a.server.v03.V03Input.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskStatusUpdateEvent;

/**
 * The v0.3 stream results: a Task, a Message, {@code {kind: "status-update", ..., final}} and
 * {@code {kind: "artifact-update", ..., append, lastChunk}}, each the bare object discriminated by
 * its kind, where v1.0's StreamResponse wraps the same event in a oneof member.
 *
 * <p>PROTOCOL (A2A v0.3 §7.2.2): {@code final} marks the last event of the stream. v1.0 has no
 * such flag (a client reads the state): Legate ends a stream at the status that ends the turn (a
 * terminal state, input-required or auth-required), so exactly such a status update carries
 * {@code final: true}; the flag is dropped on the way in.
 */
final class V03Events {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private V03Events() {
    }

    /** A v1.0 stream event as the v0.3 {@code result} of its SSE frame. */
    static ObjectNode toV03(StreamResponse event) {
        return switch (event.getPayloadCase()) {
            case TASK -> V03Tasks.task(event.getTask());
            case MESSAGE -> V03Messages.toV03(event.getMessage());
            case STATUS_UPDATE -> statusUpdate(event.getStatusUpdate());
            case ARTIFACT_UPDATE -> artifactUpdate(event.getArtifactUpdate());
            // The runtime publishes no empty event; were one to slip through, v0.3 has nothing to call it.
            case PAYLOAD_NOT_SET -> throw new IllegalStateException("a stream event without a payload");
        };
    }

    static ObjectNode statusUpdate(TaskStatusUpdateEvent e) {
        ObjectNode out = JSON.objectNode();
        out.put("kind", "status-update");
        out.put("taskId", e.getTaskId());
        out.put("contextId", e.getContextId());
        out.set("status", V03Tasks.status(e.getStatus()));
        out.put("final", TaskStates.endsTurn(e.getStatus().getState()));
        if (e.hasMetadata()) {
            out.set("metadata", StructJson.json(e.getMetadata()));
        }
        return out;
    }

    static ObjectNode artifactUpdate(TaskArtifactUpdateEvent e) {
        ObjectNode out = JSON.objectNode();
        out.put("kind", "artifact-update");
        out.put("taskId", e.getTaskId());
        out.put("contextId", e.getContextId());
        out.set("artifact", V03Tasks.artifact(e.getArtifact()));
        out.put("append", e.getAppend());
        out.put("lastChunk", e.getLastChunk());
        if (e.hasMetadata()) {
            out.set("metadata", StructJson.json(e.getMetadata()));
        }
        return out;
    }

    /** A v0.3 stream result read into the v1.0 model, by its kind. */
    static StreamResponse toV1(JsonNode json, String path) {
        ObjectNode r = object(json, path);
        String kind = string(r, "kind", path);
        StreamResponse.Builder out = StreamResponse.newBuilder();
        switch (kind) {
            case "task" -> out.setTask(V03Tasks.taskToV1(r, path));
            case "message" -> out.setMessage(V03Messages.toV1(r, path));
            case "status-update" -> {
                TaskStatusUpdateEvent.Builder e = TaskStatusUpdateEvent.newBuilder()
                        .setTaskId(string(r, "taskId", path)).setContextId(string(r, "contextId", path))
                        .setStatus(V03Tasks.statusToV1(r.get("status"), path + ".status"));
                ObjectNode metadata = optionalObject(r, "metadata", path);
                if (metadata != null) {
                    e.setMetadata(StructJson.struct(metadata));
                }
                out.setStatusUpdate(e);
            }
            case "artifact-update" -> {
                TaskArtifactUpdateEvent.Builder e = TaskArtifactUpdateEvent.newBuilder()
                        .setTaskId(string(r, "taskId", path)).setContextId(string(r, "contextId", path))
                        .setArtifact(V03Tasks.artifactToV1(r.get("artifact"), path + ".artifact"));
                Boolean append = optionalBoolean(r, "append", path);
                Boolean lastChunk = optionalBoolean(r, "lastChunk", path);
                e.setAppend(append != null && append).setLastChunk(lastChunk != null && lastChunk);
                ObjectNode metadata = optionalObject(r, "metadata", path);
                if (metadata != null) {
                    e.setMetadata(StructJson.struct(metadata));
                }
                out.setArtifactUpdate(e);
            }
            default -> throw invalid(path + ".kind", "is no v0.3 stream result: \"" + kind + "\"");
        }
        return out.build();
    }
}
