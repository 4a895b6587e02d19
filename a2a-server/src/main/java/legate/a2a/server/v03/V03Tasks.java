package legate.a2a.server.v03;

import static legate.a2a.server.v03.V03Input.array;
import static legate.a2a.server.v03.V03Input.invalid;
import static legate.a2a.server.v03.V03Input.kindIs;
import static legate.a2a.server.v03.V03Input.object;
import static legate.a2a.server.v03.V03Input.optionalObject;
import static legate.a2a.server.v03.V03Input.optionalString;
import static legate.a2a.server.v03.V03Input.string;
import static legate.a2a.server.v03.V03Input.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskStatus;

/**
 * The v0.3 Task ({@code kind: "task"}), TaskStatus (state by its v0.3 name, timestamp as an
 * ISO 8601 string) and Artifact, from the v1.0 model and back. Empty v1.0 fields are left out, as
 * ProtoJSON leaves them out; v0.3 marks the same fields optional.
 */
final class V03Tasks {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private V03Tasks() {
    }

    static ObjectNode task(Task t) {
        ObjectNode out = JSON.objectNode();
        out.put("kind", "task");
        out.put("id", t.getId());
        out.put("contextId", t.getContextId());
        out.set("status", status(t.getStatus()));
        if (t.getHistoryCount() > 0) {
            ArrayNode history = out.putArray("history");
            t.getHistoryList().forEach(m -> history.add(V03Messages.toV03(m)));
        }
        if (t.getArtifactsCount() > 0) {
            ArrayNode artifacts = out.putArray("artifacts");
            t.getArtifactsList().forEach(a -> artifacts.add(artifact(a)));
        }
        if (t.hasMetadata()) {
            out.set("metadata", StructJson.json(t.getMetadata()));
        }
        return out;
    }

    static ObjectNode status(TaskStatus s) {
        ObjectNode out = JSON.objectNode();
        out.put("state", V03States.toV03(s.getState()));
        if (s.hasMessage()) {
            out.set("message", V03Messages.toV03(s.getMessage()));
        }
        if (s.hasTimestamp()) {
            out.put("timestamp", Instant.ofEpochSecond(s.getTimestamp().getSeconds(), s.getTimestamp().getNanos()).toString());
        }
        return out;
    }

    static ObjectNode artifact(Artifact a) {
        ObjectNode out = JSON.objectNode();
        out.put("artifactId", a.getArtifactId());
        if (!a.getName().isEmpty()) {
            out.put("name", a.getName());
        }
        if (!a.getDescription().isEmpty()) {
            out.put("description", a.getDescription());
        }
        out.set("parts", V03Messages.parts(a.getPartsList()));
        if (a.hasMetadata()) {
            out.set("metadata", StructJson.json(a.getMetadata()));
        }
        V03Messages.putStrings(out, "extensions", a.getExtensionsList());
        return out;
    }

    // ---------------------------------------------------------------- v0.3 -> v1.0

    /** A v0.3 Task read into the v1.0 model (what a v0.3 peer's answer holds). */
    static Task taskToV1(JsonNode json, String path) {
        ObjectNode t = object(json, path);
        kindIs(t, "task", path);
        Task.Builder out = Task.newBuilder()
                .setId(string(t, "id", path))
                .setContextId(string(t, "contextId", path))
                .setStatus(statusToV1(t.get("status"), path + ".status"));
        JsonNode history = t.get("history");
        for (int i = 0; history != null && i < history.size(); i++) {
            out.addHistory(V03Messages.toV1(history.get(i), path + ".history[" + i + "]"));
        }
        JsonNode artifacts = t.get("artifacts");
        for (int i = 0; artifacts != null && i < artifacts.size(); i++) {
            out.addArtifacts(artifactToV1(artifacts.get(i), path + ".artifacts[" + i + "]"));
        }
        ObjectNode metadata = optionalObject(t, "metadata", path);
        if (metadata != null) {
            out.setMetadata(StructJson.struct(metadata));
        }
        return out.build();
    }

    static TaskStatus statusToV1(JsonNode json, String path) {
        ObjectNode s = object(json, path);
        TaskStatus.Builder out = TaskStatus.newBuilder().setState(V03States.toV1(string(s, "state", path)));
        if (s.hasNonNull("message")) {
            out.setMessage(V03Messages.toV1(s.get("message"), path + ".message"));
        }
        String timestamp = optionalString(s, "timestamp", path);
        if (timestamp != null) {
            try {
                Instant i = OffsetDateTime.parse(timestamp).toInstant();
                out.setTimestamp(Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()));
            } catch (DateTimeParseException e) {
                throw invalid(path + ".timestamp", "must be an ISO 8601 date-time");
            }
        }
        return out.build();
    }

    static Artifact artifactToV1(JsonNode json, String path) {
        ObjectNode a = object(json, path);
        Artifact.Builder out = Artifact.newBuilder().setArtifactId(string(a, "artifactId", path));
        String name = optionalString(a, "name", path);
        String description = optionalString(a, "description", path);
        if (name != null) {
            out.setName(name);
        }
        if (description != null) {
            out.setDescription(description);
        }
        JsonNode parts = array(a, "parts", path);
        for (int i = 0; i < parts.size(); i++) {
            out.addParts(V03Parts.toV1(parts.get(i), path + ".parts[" + i + "]"));
        }
        ObjectNode metadata = optionalObject(a, "metadata", path);
        if (metadata != null) {
            out.setMetadata(StructJson.struct(metadata));
        }
        out.addAllExtensions(strings(a, "extensions", path));
        return out.build();
    }
}
