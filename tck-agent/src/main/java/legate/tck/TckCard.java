package legate.tck;

import legate.a2a.server.card.LegateCards;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentSkill;

/** The TCK agent's card: Legate's interfaces and capabilities, and one skill that names what it is for. */
public final class TckCard {
    public static final String DEFAULT_NAME = "Legate TCK agent";

    private TckCard() {
    }

    /**
     * @param name the card's name; blank keeps the default
     * @param publicUrl the URL clients dial
     */
    public static AgentCard build(String name, String publicUrl) {
        return LegateCards.jsonRpc(name == null || name.isBlank() ? DEFAULT_NAME : name,
                        "The system under test of the official A2A TCK: answers the TCK's scripted messages "
                        + "(by their messageId prefix) and completes any other message at once.",
                        publicUrl)
                .addSkills(AgentSkill.newBuilder()
                        .setId("tck")
                        .setName("TCK scenarios")
                        .setDescription("States, artifacts, a direct message reply and a long-running task, "
                                + "chosen by the messageId prefix the TCK sends (tck-complete-task, "
                                + "tck-artifact-text, tck-stream-001, ...).")
                        .addTags("tck")
                        .addTags("conformance")
                        .addInputModes("text/plain")
                        .addOutputModes("text/plain")
                        .addOutputModes("application/json"))
                .build();
    }
}
