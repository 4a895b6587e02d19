package legate.tck;

import java.util.List;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;

/**
 * One thing a scripted turn does, in the order the TCK's scenario names it ("Then ... And ...").
 * The TCK's scenarios (its {@code scenarios/*.feature}) speak of status updates, artifacts and
 * artifact chunks, a direct message reply, a refusal and a wait; these are the same words as
 * values, so that the table in {@link TckScenarios} reads like the scenarios it follows.
 */
sealed interface Step {

    /** "update the task status to" / "complete the task [with the message]": {@code text} may be null. */
    record Status(TaskState state, String text) implements Step {
    }

    /**
     * "add an artifact" / "stream an artifact [chunk]". PROTOCOL (A2A §4.2.2 TaskArtifactUpdateEvent):
     * the chunks of one artifact share its id, the first with {@code append} false, the rest true,
     * the last with {@code lastChunk}; {@code chunkOf} numbers the artifact within its turn so the
     * chunks of one artifact find one id.
     */
    record Artifact(int chunkOf, List<Part> parts, boolean append, boolean lastChunk) implements Step {
        public Artifact {
            parts = List.copyOf(parts);
        }

        /** A whole artifact in one event. */
        static Artifact whole(int number, Part part) {
            return new Artifact(number, List.of(part), false, true);
        }
    }

    /** "return a message with a text part": the answer is a Message and no task is created (A2A §3.1.1). */
    record Reply(String text) implements Step {
    }

    /**
     * "reject with error": the executor refuses the work. PROTOCOL (A2A §4.1.3): the state for that
     * is TASK_STATE_REJECTED, with the reason as the status message.
     */
    record Reject(String reason) implements Step {
    }

    /**
     * "wait for Nx streaming timeout": long enough for the TCK to subscribe while the task still
     * runs. The wait ends at once when the task is canceled.
     */
    record Pause(int timeoutMultiple) implements Step {
    }
}
