package legate.a2a.model;

import com.google.protobuf.ProtocolStringList;
import java.util.Base64;
import java.util.List;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;

/**
 * ProtoJSON for the messages every response and SSE frame is made of (Task and what it holds, the
 * stream events), written with the generated getters instead of descriptor reflection, which was
 * the largest single cost left on the SendMessage path after JsonFormat went. Field order and
 * omission rules are the descriptor walker's; {@code ProtoJsonWriterTest} holds both to
 * JsonFormat's documents.
 */
final class HotTypeWriter {
    private final ProtoJsonWriter generic;
    private final boolean forceTaskArtifacts;

    HotTypeWriter(ProtoJsonWriter generic, boolean forceTaskArtifacts) {
        this.generic = generic;
        this.forceTaskArtifacts = forceTaskArtifacts;
    }

    /** Writes {@code m} when it is one of the hot types and returns true; false leaves it to the caller. */
    boolean tryWrite(Object m, StringBuilder out) {
        switch (m) {
            case Task t -> task(t, out);
            case StreamResponse r -> streamResponse(r, out);
            case SendMessageResponse r -> sendMessageResponse(r, out);
            case Message msg -> message(msg, out);
            case TaskStatusUpdateEvent e -> statusUpdate(e, out);
            case TaskArtifactUpdateEvent e -> artifactUpdate(e, out);
            default -> {
                return false;
            }
        }
        return true;
    }

    private void streamResponse(StreamResponse r, StringBuilder out) {
        switch (r.getPayloadCase()) {
            case TASK -> task(r.getTask(), out.append("{\"task\":"));
            case MESSAGE -> message(r.getMessage(), out.append("{\"message\":"));
            case STATUS_UPDATE -> statusUpdate(r.getStatusUpdate(), out.append("{\"statusUpdate\":"));
            case ARTIFACT_UPDATE -> artifactUpdate(r.getArtifactUpdate(), out.append("{\"artifactUpdate\":"));
            case PAYLOAD_NOT_SET -> {
                out.append("{}");
                return;
            }
        }
        out.append('}');
    }

    private void sendMessageResponse(SendMessageResponse r, StringBuilder out) {
        switch (r.getPayloadCase()) {
            case TASK -> task(r.getTask(), out.append("{\"task\":"));
            case MESSAGE -> message(r.getMessage(), out.append("{\"message\":"));
            case PAYLOAD_NOT_SET -> {
                out.append("{}");
                return;
            }
        }
        out.append('}');
    }

    private void task(Task t, StringBuilder out) {
        Fields f = new Fields(out);
        f.string("id", t.getId());
        f.string("contextId", t.getContextId());
        if (t.hasStatus()) {
            status(t.getStatus(), f.key("status"));
        }
        if (t.getArtifactsCount() > 0 || forceTaskArtifacts) {
            f.key("artifacts").append('[');
            List<Artifact> artifacts = t.getArtifactsList();
            for (int i = 0; i < artifacts.size(); i++) {
                artifact(artifacts.get(i), i > 0 ? out.append(',') : out);
            }
            out.append(']');
        }
        if (t.getHistoryCount() > 0) {
            f.key("history").append('[');
            List<Message> history = t.getHistoryList();
            for (int i = 0; i < history.size(); i++) {
                message(history.get(i), i > 0 ? out.append(',') : out);
            }
            out.append(']');
        }
        if (t.hasMetadata()) {
            generic.write(t.getMetadata(), f.key("metadata"));
        }
        out.append('}');
    }

    private void status(TaskStatus s, StringBuilder out) {
        Fields f = new Fields(out);
        if (s.getStateValue() != 0) {
            f.key("state");
            TaskState state = TaskState.forNumber(s.getStateValue());
            if (state == null) {
                out.append(s.getStateValue());
            } else {
                out.append('"').append(state.name()).append('"');
            }
        }
        if (s.hasMessage()) {
            message(s.getMessage(), f.key("message"));
        }
        if (s.hasTimestamp()) {
            ProtoJsonWriter.timestamp(s.getTimestamp(), f.key("timestamp"));
        }
        out.append('}');
    }

    private void message(Message m, StringBuilder out) {
        Fields f = new Fields(out);
        f.string("messageId", m.getMessageId());
        f.string("contextId", m.getContextId());
        f.string("taskId", m.getTaskId());
        if (m.getRoleValue() != 0) {
            f.key("role");
            Role role = Role.forNumber(m.getRoleValue());
            if (role == null) {
                out.append(m.getRoleValue());
            } else {
                out.append('"').append(role.name()).append('"');
            }
        }
        if (m.getPartsCount() > 0) {
            f.key("parts").append('[');
            List<Part> parts = m.getPartsList();
            for (int i = 0; i < parts.size(); i++) {
                part(parts.get(i), i > 0 ? out.append(',') : out);
            }
            out.append(']');
        }
        if (m.hasMetadata()) {
            generic.write(m.getMetadata(), f.key("metadata"));
        }
        f.strings("extensions", m.getExtensionsList());
        f.strings("referenceTaskIds", m.getReferenceTaskIdsList());
        out.append('}');
    }

    private void part(Part p, StringBuilder out) {
        Fields f = new Fields(out);
        switch (p.getContentCase()) {
            case TEXT -> ProtoJsonWriter.string(p.getText(), f.key("text"));
            case RAW -> f.key("raw").append('"').append(Base64.getEncoder().encodeToString(p.getRaw().toByteArray())).append('"');
            case URL -> ProtoJsonWriter.string(p.getUrl(), f.key("url"));
            case DATA -> generic.write(p.getData(), f.key("data"));
            case CONTENT_NOT_SET -> {
                // nothing to print: a part without content
            }
        }
        if (p.hasMetadata()) {
            generic.write(p.getMetadata(), f.key("metadata"));
        }
        f.string("filename", p.getFilename());
        f.string("mediaType", p.getMediaType());
        out.append('}');
    }

    private void artifact(Artifact a, StringBuilder out) {
        Fields f = new Fields(out);
        f.string("artifactId", a.getArtifactId());
        f.string("name", a.getName());
        f.string("description", a.getDescription());
        if (a.getPartsCount() > 0) {
            f.key("parts").append('[');
            List<Part> parts = a.getPartsList();
            for (int i = 0; i < parts.size(); i++) {
                part(parts.get(i), i > 0 ? out.append(',') : out);
            }
            out.append(']');
        }
        if (a.hasMetadata()) {
            generic.write(a.getMetadata(), f.key("metadata"));
        }
        f.strings("extensions", a.getExtensionsList());
        out.append('}');
    }

    private void statusUpdate(TaskStatusUpdateEvent e, StringBuilder out) {
        Fields f = new Fields(out);
        f.string("taskId", e.getTaskId());
        f.string("contextId", e.getContextId());
        if (e.hasStatus()) {
            status(e.getStatus(), f.key("status"));
        }
        if (e.hasMetadata()) {
            generic.write(e.getMetadata(), f.key("metadata"));
        }
        out.append('}');
    }

    private void artifactUpdate(TaskArtifactUpdateEvent e, StringBuilder out) {
        Fields f = new Fields(out);
        f.string("taskId", e.getTaskId());
        f.string("contextId", e.getContextId());
        if (e.hasArtifact()) {
            artifact(e.getArtifact(), f.key("artifact"));
        }
        if (e.getAppend()) {
            f.key("append").append("true");
        }
        if (e.getLastChunk()) {
            f.key("lastChunk").append("true");
        }
        if (e.hasMetadata()) {
            generic.write(e.getMetadata(), f.key("metadata"));
        }
        out.append('}');
    }

    /** The members of one JSON object being written: opens it, and puts commas between members. */
    private static final class Fields {
        private final StringBuilder out;
        private boolean first = true;

        Fields(StringBuilder out) {
            this.out = out;
            out.append('{');
        }

        StringBuilder key(String name) {
            if (!first) {
                out.append(',');
            }
            first = false;
            return out.append('"').append(name).append("\":");
        }

        /** PROTOCOL (proto3 JSON): a string field at its default ("") is omitted. */
        void string(String name, String value) {
            if (!value.isEmpty()) {
                ProtoJsonWriter.string(value, key(name));
            }
        }

        void strings(String name, ProtocolStringList values) {
            if (values.isEmpty()) {
                return;
            }
            key(name).append('[');
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                ProtoJsonWriter.string(values.get(i), out);
            }
            out.append(']');
        }
    }
}
