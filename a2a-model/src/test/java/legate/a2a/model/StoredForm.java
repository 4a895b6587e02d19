package legate.a2a.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;

/**
 * What a store does with a request it accepted, for the fuzz tests: a SendMessageRequest's message
 * and metadata go into a task's history and metadata, and the task into the task's event, each
 * encoded as every store encodes them (protobuf bytes: the in-memory store's finished tasks, the
 * SQLite and PostgreSQL columns) and decoded again.
 */
public final class StoredForm {
    private StoredForm() {
    }

    /**
     * Asserts that what was accepted comes back from its stored form unchanged, once it has passed
     * the nesting limit every binding applies at input (issue 30, defect 1).
     *
     * @return false when the nesting limit refuses it (INVALID_PARAMS), as the server would
     */
    public static boolean survives(Message accepted) {
        try {
            NestingLimit.check(accepted, "");
        } catch (A2aException e) {
            assertThat(e.error()).isEqualTo(A2aError.INVALID_PARAMS);
            return false;
        }
        try {
            assertThat(decoded(accepted)).isEqualTo(accepted);
            if (accepted instanceof SendMessageRequest request) {
                Task task = Task.newBuilder().setId("t").setContextId("c")
                        .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_COMPLETED))
                        .addHistory(request.getMessage()).setMetadata(request.getMetadata()).build();
                StreamResponse event = StreamResponse.newBuilder().setTask(task).build();
                assertThat(Task.parseFrom(task.toByteArray())).isEqualTo(task);
                assertThat(StreamResponse.parseFrom(event.toByteArray())).isEqualTo(event);
            }
            return true;
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError("an accepted " + accepted.getDescriptorForType().getName()
                    + " does not decode from its stored form: " + e.getMessage(), e);
        }
    }

    private static Message decoded(Message m) throws InvalidProtocolBufferException {
        return m.getParserForType().parseFrom(m.toByteArray());
    }
}
