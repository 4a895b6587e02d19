package legate.tck;

import java.util.List;

/**
 * What the TCK asks for with a message whose {@code messageId} starts with {@code prefix}: the
 * steps of the turn, in order. The prefix is the TCK's in-band signal (its docs/SUT_REQUIREMENTS.md):
 * a test names the behaviour it needs in the id of the message it sends, followed by a session
 * suffix, so no side channel exists between the TCK and the agent.
 */
record Scenario(String prefix, List<Step> steps) {
    Scenario {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("scenario " + prefix + " has no step");
        }
        steps = List.copyOf(steps);
    }

    boolean matches(String messageId) {
        return messageId.startsWith(prefix);
    }

    /** True when the answer is a bare Message rather than a task. */
    boolean answersWithMessage() {
        return steps.getFirst() instanceof Step.Reply;
    }
}
