package legate.a2a.server.edge;

import javax.net.ssl.X509TrustManager;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;

/**
 * The HTTPS listener: TLS with a {@link TlsIdentity}, then HTTP/2 when the client offers it by
 * ALPN (RFC 7301; "h2", RFC 9113 §3.2) and HTTP/1.1 otherwise, both serving the same handlers.
 */
public final class Https {
    private Https() {
    }

    /**
     * A connector for {@code jetty} speaking TLS, then h2 or http/1.1.
     *
     * @param http the configuration both protocols share (a secure-request customizer is added)
     * @param http1 the HTTP/1.1 factory, already tuned by the caller
     * @param clientCheck how a client certificate is checked (mutual TLS); null: no client is asked for one
     */
    public static ServerConnector connector(Server jetty, HttpConfiguration http, HttpConnectionFactory http1,
                                            TlsIdentity identity, X509TrustManager clientCheck) {
        http.addCustomizer(new SecureRequestCustomizer());
        HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http);
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        // A client that offers no ALPN at all (curl --http1.1, old libraries) speaks HTTP/1.1.
        alpn.setDefaultProtocol(http1.getProtocol());
        SslConnectionFactory tls = new SslConnectionFactory(identity.sslContextFactory(clientCheck), alpn.getProtocol());
        return new ServerConnector(jetty, 1, 1, tls, alpn, h2, http1);
    }
}
