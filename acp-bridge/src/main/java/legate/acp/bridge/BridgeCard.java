package legate.acp.bridge;

import legate.a2a.server.card.LegateCards;
import legate.acp.adapter.Backend;
import legate.acp.protocol.Implementation;
import legate.acp.protocol.InitializeResponse;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentSkill;

/**
 * The bridge's Agent Card, built from the agent's own answer to {@code initialize}: who it is
 * (agentInfo), which adapter and version, and one generic skill tagged with the backend.
 */
public final class BridgeCard {
    private BridgeCard() {
    }

    /** "Claude (via ACP)", "Codex (via ACP)", or the agent's title for any other agent. */
    public static String defaultName(Backend backend, InitializeResponse init) {
        if (backend.label() != null) {
            return backend.label() + " (via ACP)";
        }
        Implementation info = init.agentInfo();
        String who = info != null && !info.displayName().isBlank() ? info.displayName() : backend.command().program();
        return who + " (via ACP)";
    }

    /**
     * @param name AGENT_NAME; when set it replaces the default name outright
     * @param publicUrl the URL clients dial
     */
    public static AgentCard build(Backend backend, InitializeResponse init, String name, String publicUrl) {
        Implementation info = init.agentInfo();
        String adapter = info == null ? backend.command().program()
                : info.displayName() + " (" + info.name() + (info.version().isEmpty() ? "" : " " + info.version()) + ")";
        String mode = backend.supervisedModeId() == null ? "" : " in its supervised mode '" + backend.supervisedModeId() + "'";
        return LegateCards.jsonRpc(name == null || name.isBlank() ? defaultName(backend, init) : name,
                        adapter + ", a coding agent reached over ACP (protocol " + init.protocolVersion()
                        + ") through Legate's bridge. Each conversation (contextId) gets its own agent session"
                        + " and working directory; the agent runs" + mode + ", and Legate decides its permission"
                        + " requests and reports every refusal.",
                        publicUrl)
                .addSkills(AgentSkill.newBuilder()
                        .setId("coding")
                        .setName("Coding task")
                        .setDescription("Describe a coding task in words: the agent reads, writes and explains code"
                                + " in its working directory and answers in text. Follow-up messages in the same"
                                + " contextId continue the same session.")
                        .addTags("coding")
                        .addTags(backend.id())
                        .addExamples("Write a Python function that checks whether a string is a palindrome, with tests.")
                        .addInputModes("text/plain")
                        .addOutputModes("text/plain")
                        .addOutputModes("application/json"))
                .build();
    }
}
