package legate.a2a.server;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import lf.a2a.v1.AgentInterface;

/**
 * A protocol binding at a protocol version that a Legate server can serve, as one entry of the
 * card's {@code supportedInterfaces} (A2A §5, §8.3.2) and as one name in {@code A2A_BINDINGS}.
 *
 * <p>The set is closed on purpose: it is what this build has code for. A binding is listed here
 * before its handler exists so that {@code A2A_BINDINGS} can name it and be refused with a clear
 * message; it joins {@link #SERVED} in the same commit that adds its handler to {@link AgentServer}.
 */
public enum ProtocolBinding {
    /** A2A §9: JSON-RPC 2.0 over HTTP POST to the interface URL. */
    JSONRPC("JSONRPC", "JSONRPC", "1.0"),
    /** A2A §11: HTTP+JSON (REST), its paths relative to the interface URL. */
    HTTP_JSON("HTTP+JSON", "HTTP+JSON", "1.0"),
    /** A2A §10: gRPC, {@code lf.a2a.v1.A2AService}; the interface URL is {@code host:port}. */
    GRPC("GRPC", "GRPC", "1.0"),
    /** A2A v0.3 JSON-RPC (method names {@code message/send}, …), translated at the edge. */
    JSONRPC_0_3("JSONRPC-0.3", "JSONRPC", "0.3");

    /**
     * The bindings this build serves. PROTOCOL (A2A §8.3.2): a card must not advertise an
     * interface nobody answers, so a binding joins this set only together with its handler.
     */
    public static final Set<ProtocolBinding> SERVED = EnumSet.of(JSONRPC, HTTP_JSON, GRPC, JSONRPC_0_3);

    private final String settingName;
    private final String protocolBinding;
    private final String protocolVersion;

    ProtocolBinding(String settingName, String protocolBinding, String protocolVersion) {
        this.settingName = settingName;
        this.protocolBinding = protocolBinding;
        this.protocolVersion = protocolVersion;
    }

    /** The name {@code A2A_BINDINGS} uses: {@code JSONRPC}, {@code HTTP+JSON}, {@code GRPC}, {@code JSONRPC-0.3}. */
    public String settingName() {
        return settingName;
    }

    /** {@code AgentInterface.protocolBinding}: an open string in the spec, one of three names in v1.0. */
    public String protocolBinding() {
        return protocolBinding;
    }

    /** {@code AgentInterface.protocolVersion}, Major.Minor (A2A §3.6). */
    public String protocolVersion() {
        return protocolVersion;
    }

    /** Every binding this build serves, JSON-RPC first: the default of {@code A2A_BINDINGS}. */
    public static List<ProtocolBinding> defaults() {
        return Arrays.stream(values()).filter(SERVED::contains).toList();
    }

    /**
     * The bindings a comma list names, in its order (the card's order of preference). Names are
     * case-insensitive; {@code REST} is accepted for {@code HTTP+JSON}. A blank list means
     * {@link #defaults()}.
     *
     * @throws IllegalArgumentException naming the word that is no binding, a binding named twice,
     *     or a binding this build does not serve yet
     */
    public static List<ProtocolBinding> parse(String commaList) {
        if (commaList == null || commaList.isBlank()) {
            return defaults();
        }
        List<ProtocolBinding> out = new ArrayList<>();
        for (String word : commaList.split(",")) {
            ProtocolBinding b = named(word.strip());
            if (out.contains(b)) {
                throw new IllegalArgumentException("A2A_BINDINGS names " + b.settingName + " twice");
            }
            out.add(b);
        }
        requireServed(out);
        return List.copyOf(out);
    }

    /**
     * Refuses a binding without a handler in this build. The one place that says so: a binding
     * that lands adds itself to {@link #SERVED}.
     */
    public static void requireServed(List<ProtocolBinding> bindings) {
        for (ProtocolBinding b : bindings) {
            if (!SERVED.contains(b)) {
                throw new IllegalArgumentException("the " + b.settingName + " binding is not served by this build yet;"
                        + " A2A_BINDINGS may name " + names(defaults()));
            }
        }
    }

    private static ProtocolBinding named(String word) {
        String upper = word.toUpperCase(Locale.ROOT);
        if (upper.equals("REST")) {
            return HTTP_JSON;
        }
        for (ProtocolBinding b : values()) {
            if (b.settingName.equals(upper)) {
                return b;
            }
        }
        throw new IllegalArgumentException("A2A_BINDINGS: \"" + word + "\" is not a binding; the names are "
                + names(List.of(values())));
    }

    private static String names(List<ProtocolBinding> bindings) {
        return bindings.stream().map(ProtocolBinding::settingName).collect(Collectors.joining(", "));
    }

    /**
     * This binding's entry in the card, derived from the JSON-RPC interface's URL (the public URL,
     * which may be a proxy such as the tap). HTTP+JSON shares it, its paths appended without a
     * doubled slash; v0.3 answers under {@code v0.3/} of it; gRPC is dialled as {@code host:port},
     * the public URL's host and the gRPC listener's own port.
     *
     * @param grpcPort the port the gRPC listener bound
     */
    public AgentInterface interfaceAt(String jsonRpcUrl, int grpcPort) {
        return AgentInterface.newBuilder()
                .setUrl(urlFrom(jsonRpcUrl, grpcPort))
                .setProtocolBinding(protocolBinding)
                .setProtocolVersion(protocolVersion)
                .build();
    }

    /**
     * This binding's interface URL for a JSON-RPC interface URL, for the bindings that share its
     * listener (every one but gRPC, which has a port of its own: {@link #urlFrom(String, int)}).
     */
    public String urlFrom(String jsonRpcUrl) {
        if (this == GRPC) {
            throw new IllegalStateException("a gRPC interface URL needs the gRPC listener's port");
        }
        return urlFrom(jsonRpcUrl, 0);
    }

    /** This binding's interface URL for a JSON-RPC interface URL (see {@link #interfaceAt}). */
    public String urlFrom(String jsonRpcUrl, int grpcPort) {
        return switch (this) {
            case JSONRPC -> jsonRpcUrl;
            // PROTOCOL (A2A §11.3): REST paths are relative to the interface URL ("/message:send"
            // appended), so the URL is given without its trailing slash.
            case HTTP_JSON -> jsonRpcUrl.endsWith("/") ? jsonRpcUrl.substring(0, jsonRpcUrl.length() - 1) : jsonRpcUrl;
            case JSONRPC_0_3 -> URI.create(jsonRpcUrl.endsWith("/") ? jsonRpcUrl : jsonRpcUrl + "/").resolve("v0.3/").toString();
            // PROTOCOL (A2A §10, v1.0.1 proto comment): a gRPC interface URL is host:port. The host is
            // the public URL's (an IPv6 literal keeps its brackets), the port gRPC's own listener's.
            case GRPC -> URI.create(jsonRpcUrl).getHost() + ":" + grpcPort;
        };
    }
}
