package legate.a2a.client;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;

/**
 * A protocol binding at a protocol version, as an {@link AgentInterface} of a card names them
 * ({@code JSONRPC} at {@code 1.0}); a client's list of these is what it can dial.
 *
 * @param protocolBinding the binding name: {@code JSONRPC}, {@code GRPC}, {@code HTTP+JSON} (an open set)
 * @param protocolVersion the A2A version, Major.Minor
 */
public record Binding(String protocolBinding, String protocolVersion) {
    public static final Binding JSONRPC_1_0 = new Binding("JSONRPC", "1.0");
    public static final Binding HTTP_JSON_1_0 = new Binding("HTTP+JSON", "1.0");
    public static final Binding GRPC_1_0 = new Binding("GRPC", "1.0");

    /**
     * Bindings with a transport in this build; a config may list only these. The one place a new
     * transport registers, together with its case in {@code A2aClient}'s transport choice.
     */
    static final Set<String> IMPLEMENTED = Set.of("JSONRPC", "HTTP+JSON", "GRPC");

    /** Every v1.0 binding this build has a transport for, in Legate's own preference: the default. */
    public static List<Binding> implemented() {
        return Stream.of(JSONRPC_1_0, HTTP_JSON_1_0, GRPC_1_0)
                .filter(b -> IMPLEMENTED.contains(b.protocolBinding())).toList();
    }

    /**
     * The binding a user named ({@code --binding}, {@code A2A_BINDING}): {@code JSONRPC},
     * {@code HTTP+JSON} (or {@code REST}) or {@code GRPC}, case-insensitive, at version 1.0.
     *
     * @throws IllegalArgumentException naming the word and the bindings this client speaks
     */
    public static Binding named(String word) {
        String upper = word == null ? "" : word.strip().toUpperCase(Locale.ROOT);
        Binding b = switch (upper) {
            case "JSONRPC", "JSON-RPC" -> JSONRPC_1_0;
            case "HTTP+JSON", "REST" -> HTTP_JSON_1_0;
            case "GRPC" -> GRPC_1_0;
            default -> null;
        };
        if (b == null || !IMPLEMENTED.contains(b.protocolBinding())) {
            throw new IllegalArgumentException("\"" + word + "\" is not a binding this client speaks; it speaks "
                    + implemented().stream().map(Binding::protocolBinding).collect(Collectors.joining(", ")));
        }
        return b;
    }

    public Binding {
        if (protocolBinding == null || protocolBinding.isBlank() || protocolVersion == null || protocolVersion.isBlank()) {
            throw new IllegalArgumentException("a binding names its protocol and version");
        }
    }

    /**
     * Whether an interface of a card is this binding. PROTOCOL (A2A §3.6, §8.3): versions are
     * Major.Minor; a card that writes {@code 1.0.0} still means 1.0, so only Major.Minor is compared.
     */
    public boolean matches(AgentInterface offered) {
        return protocolBinding.equalsIgnoreCase(offered.getProtocolBinding().strip())
                && majorMinor(protocolVersion).equals(majorMinor(offered.getProtocolVersion()));
    }

    /**
     * The interface of {@code card} to dial. PROTOCOL (A2A §8.3.2): supportedInterfaces is ordered by
     * the agent's preference, so the first entry that any of {@code supported} matches wins.
     *
     * @throws AgentCardException naming every interface the card offered when none matches
     */
    public static AgentInterface choose(AgentCard card, List<Binding> supported) {
        for (AgentInterface offered : card.getSupportedInterfacesList()) {
            if (!offered.getUrl().isBlank() && supported.stream().anyMatch(b -> b.matches(offered))) {
                return offered;
            }
        }
        String wanted = supported.stream().map(Binding::toString).collect(Collectors.joining(", "));
        String got = card.getSupportedInterfacesCount() == 0 ? "none"
                : card.getSupportedInterfacesList().stream().map(Binding::describe).collect(Collectors.joining("; "));
        throw new AgentCardException("the agent card of \"" + card.getName() + "\" offers no interface this client speaks ("
                + wanted + "); it offers: " + got, card.getSupportedInterfacesList());
    }

    /** {@code JSONRPC 1.0 at http://…}, for messages. */
    public static String describe(AgentInterface i) {
        return (i.getProtocolBinding().isBlank() ? "(no binding)" : i.getProtocolBinding()) + " "
                + (i.getProtocolVersion().isBlank() ? "(no version)" : i.getProtocolVersion()) + " at "
                + (i.getUrl().isBlank() ? "(no url)" : i.getUrl());
    }

    @Override
    public String toString() {
        return protocolBinding + " " + protocolVersion;
    }

    private static String majorMinor(String version) {
        String[] parts = version.strip().toLowerCase(Locale.ROOT).split("\\.");
        return parts.length >= 2 ? parts[0] + "." + parts[1] : version.strip();
    }
}
