package legate.a2a.server.card;

import legate.a2a.model.A2aHeaders;
import legate.a2a.model.LegateVersion;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;

/**
 * What every Legate server's Agent Card says whatever agent stands behind it: one JSON-RPC 1.0
 * interface at the public URL, Legate's own version, streaming without push notifications or an
 * extended card, and text in, text and JSON out. The agent adds its name, description and skills.
 */
public final class LegateCards {
    private LegateCards() {
    }

    public static AgentCard.Builder jsonRpc(String name, String description, String publicUrl) {
        return AgentCard.newBuilder()
                .setName(name)
                .setDescription(description)
                // PROTOCOL (A2A §8.3.2): clients dial the first interface they support, at its URL.
                .addSupportedInterfaces(AgentInterface.newBuilder()
                        .setUrl(publicUrl)
                        .setProtocolBinding("JSONRPC")
                        .setProtocolVersion(A2aHeaders.PROTOCOL_VERSION))
                .setVersion(LegateVersion.get())
                // PROTOCOL (A2A §3.3.4): the capabilities decide which methods answer -32003/-32004.
                .setCapabilities(AgentCapabilities.newBuilder()
                        .setStreaming(true)
                        .setPushNotifications(false)
                        .setExtendedAgentCard(false))
                .addDefaultInputModes("text/plain")
                .addDefaultOutputModes("text/plain")
                .addDefaultOutputModes("application/json");
    }
}
