package legate.revisor;

import legate.a2a.server.card.LegateCards;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentSkill;

/** Revisor's Agent Card: one JSON-RPC interface at the public URL and the {@code text_stats} skill. */
public final class RevisorCard {
    public static final String DEFAULT_NAME = "Revisor";

    private RevisorCard() {
    }

    /**
     * @param name the card's name; blank keeps "Revisor"
     * @param publicUrl the URL clients dial, which may be a proxy in front of this server (the tap)
     */
    public static AgentCard build(String name, String publicUrl) {
        return LegateCards.jsonRpc(name == null || name.isBlank() ? DEFAULT_NAME : name,
                        "Counts the words, characters and sentences of a text and lists its most frequent "
                        + "words. A stub agent with no model behind it, so what you see is the A2A protocol itself.",
                        publicUrl)
                .addSkills(AgentSkill.newBuilder()
                        .setId("text_stats")
                        .setName("Text statistics")
                        .setDescription("Words, characters, sentences, average word length and the five most "
                                + "frequent words of the text you send. Send a message without text and it asks for some.")
                        .addTags("text")
                        .addTags("statistics")
                        .addExamples("The quick brown fox jumps over the lazy dog. It was not amused!")
                        .addInputModes("text/plain")
                        .addOutputModes("text/plain")
                        .addOutputModes("application/json"))
                .build();
    }
}
