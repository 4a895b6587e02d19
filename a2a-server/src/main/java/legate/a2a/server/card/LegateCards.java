package legate.a2a.server.card;

import java.util.List;
import legate.a2a.model.A2aHeaders;
import legate.a2a.model.LegateExtensions;
import legate.a2a.model.LegateVersion;
import legate.a2a.server.ProtocolBinding;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentExtension;
import lf.a2a.v1.AgentInterface;

/**
 * What every Legate server's Agent Card says whatever agent stands behind it: the interfaces of the
 * bindings it serves (the agent names the JSON-RPC one, at the public URL), Legate's own version, streaming without push notifications or an
 * extended card, resumable streams (an extension), and text in, text and JSON out. The agent adds
 * its name, description and skills.
 */
public final class LegateCards {
    /** The card's entry for {@link LegateExtensions#RESUMABLE_STREAMS}: what a client reads there. */
    public static final AgentExtension RESUMABLE_STREAMS = AgentExtension.newBuilder()
            .setUri(LegateExtensions.RESUMABLE_STREAMS)
            .setDescription("Every SSE frame of SendStreamingMessage and SubscribeToTask carries an id: the task"
                    + " event's sequence number, the same on every stream. A client that loses a stream calls"
                    + " SubscribeToTask with the Last-Event-ID header set to the last id it read, and gets every"
                    + " event after it, then the live ones. On gRPC the stream's response headers carry"
                    + " legate-first-event-id, the id of its first message, each message after it being the next"
                    + " event; the resubscription carries last-event-id metadata.")
            // Optional: a client that ignores it sees the spec's behaviour unchanged.
            .setRequired(false)
            .build();

    private LegateCards() {
    }

    /**
     * {@code card} with one interface per served binding, in {@code served}'s order, each derived from
     * the card's JSON-RPC 1.0 interface (the public URL the agent named; the first interface when it
     * named none). PROTOCOL (A2A §8.3.2): supportedInterfaces is ordered by preference and clients
     * dial the first they speak, so the order is the operator's (A2A_BINDINGS).
     *
     * @param grpcPort the port the gRPC listener bound (used when {@code served} names gRPC)
     */
    public static AgentCard withInterfaces(AgentCard card, List<ProtocolBinding> served, int grpcPort) {
        return withInterfaces(card, served, grpcPort, null);
    }

    /**
     * The same, advertising gRPC at {@code grpcPublicAddress} ({@code host:port} of a proxy in front of
     * the gRPC listener) when it is not null.
     */
    public static AgentCard withInterfaces(AgentCard card, List<ProtocolBinding> served, int grpcPort,
                                           String grpcPublicAddress) {
        if (card.getSupportedInterfacesCount() == 0) {
            return card;
        }
        String base = card.getSupportedInterfacesList().stream()
                .filter(i -> i.getProtocolBinding().equals("JSONRPC")
                        && i.getProtocolVersion().equals(A2aHeaders.PROTOCOL_VERSION))
                .findFirst().orElse(card.getSupportedInterfaces(0)).getUrl();
        AgentCard.Builder b = card.toBuilder().clearSupportedInterfaces();
        for (ProtocolBinding binding : served) {
            AgentInterface i = binding.interfaceAt(base, grpcPort);
            b.addSupportedInterfaces(binding == ProtocolBinding.GRPC && grpcPublicAddress != null
                    ? i.toBuilder().setUrl(grpcPublicAddress).build() : i);
        }
        return b.build();
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
                        .setExtendedAgentCard(false)
                        // PROTOCOL (A2A §4.6): an extension is declared in the card, by its URI.
                        .addExtensions(RESUMABLE_STREAMS))
                .addDefaultInputModes("text/plain")
                .addDefaultOutputModes("text/plain")
                .addDefaultOutputModes("application/json");
    }
}
