package legate.a2a.server.auth;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;

/**
 * What a caller presented to prove who it is (A2A §7): the request's headers (a bearer token, an
 * API key, a JWT), and the certificate chain its TLS handshake verified (mutual TLS), its own
 * certificate first; no certificate on plain HTTP or when the client sent none.
 */
public record Presented(HttpFields headers, List<X509Certificate> certificates) {
    public Presented {
        certificates = certificates == null ? List.of() : List.copyOf(certificates);
    }

    /** Headers alone: a request over plain HTTP, or without a client certificate. */
    public static Presented headers(HttpFields headers) {
        return new Presented(headers, List.of());
    }

    /** What an HTTP request presented: its headers, and the chain its connection's handshake verified. */
    public static Presented of(Request request) {
        EndPoint.SslSessionData tls = (EndPoint.SslSessionData) request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE);
        X509Certificate[] chain = tls == null ? null : tls.peerCertificates();
        return new Presented(request.getHeaders(), chain == null ? List.of() : List.of(chain));
    }

    /** The chain a TLS session's handshake verified, none when the peer sent none (or there is no session). */
    public static List<X509Certificate> peerCertificates(SSLSession session) {
        if (session == null) {
            return List.of();
        }
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate c : session.getPeerCertificates()) {
                if (c instanceof X509Certificate x) {
                    chain.add(x);
                }
            }
            return chain;
        } catch (SSLPeerUnverifiedException e) {
            return List.of();
        }
    }
}
