package legate.a2a.client;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ApplicationProtocolConfig;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.grpc.netty.shaded.io.netty.handler.ssl.JdkSslContext;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
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

    /**
     * @param trusted the TLS context of {@link ClientTrust#tls()} (a private CA, {@code --ca-cert}), or
     *     null for the JDK's authorities
     */
    static GrpcTransport transport(AgentInterface chosen, Supplier<Map<String, String>> headers, boolean tls,
                                   SSLContext trusted) {
        URI address = address(chosen);
        String host = address.getHost().startsWith("[") ? address.getHost().substring(1, address.getHost().length() - 1)
                : address.getHost();
        ManagedChannel channel;
        if (tls && trusted != null) {
            // The same trust as https: netty takes the JDK context as it is; grpc-netty checks the
            // host name against the certificate (endpoint identification HTTPS), as the JDK client does.
            channel = NettyChannelBuilder.forAddress(host, address.getPort())
                    .sslContext(new JdkSslContext(trusted, true, null, IdentityCipherSuiteFilter.INSTANCE,
                            new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, "h2"),
                            ClientAuth.NONE, null, false))
                    .userAgent("legate")
                    .build();
        } else {
            ChannelCredentials credentials = tls ? TlsChannelCredentials.create() : InsecureChannelCredentials.create();
            channel = Grpc.newChannelBuilderForAddress(host, address.getPort(), credentials).userAgent("legate").build();
        }
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
