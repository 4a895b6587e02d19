package legate.a2a.client;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import java.net.URI;
import java.util.List;
import java.util.Map;
import legate.a2a.client.internal.GrpcTransport;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;

/**
 * How a client dials a card's gRPC interface (A2A §10): its URL is {@code host:port} with no scheme
 * (v1.0.1 proto comment), so whether to speak TLS is read from the card's other URLs: an agent whose
 * card was fetched over https, or whose HTTP interfaces are https, is dialled with TLS, as a Legate
 * server serves gRPC with the TLS identity of its HTTP listener.
 */
final class GrpcChannels {
    private GrpcChannels() {
    }

    static GrpcTransport transport(AgentInterface chosen, Map<String, String> headers, boolean tls) {
        URI address = address(chosen);
        ChannelCredentials credentials = tls ? TlsChannelCredentials.create() : InsecureChannelCredentials.create();
        String host = address.getHost().startsWith("[") ? address.getHost().substring(1, address.getHost().length() - 1)
                : address.getHost();
        ManagedChannel channel = Grpc.newChannelBuilderForAddress(host, address.getPort(), credentials)
                .userAgent("legate")
                .build();
        return new GrpcTransport(channel, URI.create((tls ? "https://" : "http://") + address.getRawAuthority()), headers);
    }

    /** Whether the agent serves gRPC over TLS, as its card's other URLs say. */
    static boolean usesTls(AgentCard card, URI cardUrl) {
        if (cardUrl != null) {
            return "https".equalsIgnoreCase(cardUrl.getScheme());
        }
        return card.getSupportedInterfacesList().stream().anyMatch(i -> i.getUrl().strip().startsWith("https://"));
    }

    /** The interface's {@code host:port}; a bracketed IPv6 literal is kept as one. */
    private static URI address(AgentInterface chosen) {
        String url = chosen.getUrl().strip();
        // A card that writes a scheme anyway (grpc://, http://) is read for its authority only.
        int scheme = url.indexOf("://");
        String authority = scheme >= 0 ? url.substring(scheme + 3) : url;
        int slash = authority.indexOf('/');
        if (slash >= 0) {
            authority = authority.substring(0, slash);
        }
        try {
            URI u = new URI(null, authority, null, null, null);
            if (u.getHost() == null || u.getPort() < 0) {
                throw new IllegalArgumentException("no host and port");
            }
            return u;
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            throw new AgentCardException("the card's gRPC interface URL is not host:port: " + chosen.getUrl(),
                    List.of(chosen));
        }
    }
}
