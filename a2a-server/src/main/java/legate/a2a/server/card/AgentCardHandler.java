package legate.a2a.server.card;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import legate.a2a.model.ProtoJson;
import lf.a2a.v1.AgentCard;
import org.eclipse.jetty.http.DateGenerator;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The public Agent Card at {@code /.well-known/agent-card.json} (A2A §8.2), printed once as ProtoJSON.
 *
 * <p>PROTOCOL (A2A §8.6): the card is cacheable; it carries an ETag and Last-Modified, and a
 * matching If-None-Match or If-Modified-Since gets 304 with no body. PEER (@a2a-js/sdk 1.2.0):
 * {@code Cache-Control: public, max-age=3600} and a weak ETag, as the reference server sends.
 */
public final class AgentCardHandler extends Handler.Abstract.NonBlocking {
    public static final String PATH = "/.well-known/agent-card.json";

    private final byte[] body;
    private final String etag;
    private final String lastModified;
    private final long lastModifiedSeconds;

    public AgentCardHandler(AgentCard card, Instant published) {
        this.body = ProtoJson.print(card).getBytes(StandardCharsets.UTF_8);
        this.etag = "W/\"" + sha256(body).substring(0, 32) + "\"";
        this.lastModifiedSeconds = published.getEpochSecond();
        this.lastModified = DateGenerator.formatDate(published.toEpochMilli());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            response.setStatus(405);
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            callback.succeeded();
            return true;
        }
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "public, max-age=3600");
        response.getHeaders().put(HttpHeader.ETAG, etag);
        response.getHeaders().put(HttpHeader.LAST_MODIFIED, lastModified);
        if (notModified(request)) {
            response.setStatus(304);
            callback.succeeded();
            return true;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        if (HttpMethod.HEAD.is(request.getMethod())) {
            callback.succeeded();
            return true;
        }
        response.write(true, java.nio.ByteBuffer.wrap(body), callback);
        return true;
    }

    private boolean notModified(Request request) {
        String inm = request.getHeaders().get(HttpHeader.IF_NONE_MATCH);
        if (inm != null) {
            // RFC 9110 §13.1.2: If-None-Match compares weakly and wins over If-Modified-Since.
            for (String tag : inm.split(",")) {
                String t = tag.trim();
                if (t.equals("*") || stripWeak(t).equals(stripWeak(etag))) {
                    return true;
                }
            }
            return false;
        }
        long since = request.getHeaders().getDateField(HttpHeader.IF_MODIFIED_SINCE.asString());
        return since >= 0 && since / 1000 >= lastModifiedSeconds;
    }

    private static String stripWeak(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
