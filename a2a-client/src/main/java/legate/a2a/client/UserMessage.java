package legate.a2a.client;

import java.util.UUID;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;

/**
 * A message from the client's side of a conversation: role {@code ROLE_USER} and a fresh
 * messageId. PROTOCOL (A2A §3.4, proto Message): the creator of a message generates its id.
 */
public final class UserMessage {
    private UserMessage() {
    }

    /** A builder with the role and a new messageId set. */
    public static Message.Builder newBuilder() {
        return Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER);
    }

    /**
     * One text part. An empty text still makes one part, because parts is REQUIRED with at least one
     * element (A2A §5.7); the oneof member keeps {@code {"text":""}} on the wire.
     */
    public static Message text(String text) {
        return text(text, null, null);
    }

    /** One text part, continuing {@code taskId} and/or {@code contextId} when they are not blank. */
    public static Message text(String text, String taskId, String contextId) {
        Message.Builder m = newBuilder().addParts(Part.newBuilder().setText(text == null ? "" : text));
        if (taskId != null && !taskId.isBlank()) {
            m.setTaskId(taskId);
        }
        if (contextId != null && !contextId.isBlank()) {
            m.setContextId(contextId);
        }
        return m.build();
    }
}
