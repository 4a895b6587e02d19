package legate.a2a.server.card;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import legate.a2a.server.OnFirstUse;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The server's public keys as a JWK Set (RFC 7517 §5) at {@code /.well-known/jwks.json}: what
 * verifies its Agent Card's signatures (each names its key by {@code kid}), and later what verifies
 * anything else it signs. Public halves only.
 */
public final class JwksHandler extends Handler.Abstract.NonBlocking {
    public static final String PATH = "/.well-known/jwks.json";

    private final Supplier<byte[]> body;

    /** @param keys read when the document is first asked for: a key may be made then (the push key) */
    public JwksHandler(Supplier<List<JWK>> keys) {
        // toPublicJWKSet: a private member must never reach this document, whatever was passed in.
        this.body = new OnFirstUse<>(() -> new JWKSet(keys.get()).toPublicJWKSet().toString(true)
                .getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            response.setStatus(405);
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            callback.succeeded();
            return true;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/jwk-set+json");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "public, max-age=3600");
        byte[] document = body.get();
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, document.length);
        if (HttpMethod.HEAD.is(request.getMethod())) {
            callback.succeeded();
            return true;
        }
        response.write(true, ByteBuffer.wrap(document), callback);
        return true;
    }
}
