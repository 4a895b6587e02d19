package legate.a2a.server.http;

import java.util.function.BiFunction;
import java.util.function.Predicate;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * What Jetty answers on its own, before any binding saw the request (a request line or URI it
 * cannot parse, such as a bad percent escape in a REST path; a path nobody serves): the error of the
 * binding the path belongs to, in its shape and as JSON, instead of Jetty's HTML page, so a client
 * of either binding can read every answer it gets. The status stays Jetty's.
 */
public final class A2aErrorPage extends ErrorHandler {
    private final Predicate<String> restPath;
    private final BiFunction<A2aException, Integer, String> restBody;
    private final BiFunction<A2aException, Integer, String> jsonRpcBody;

    /**
     * @param restPath whether a path is the HTTP+JSON binding's (else the answer is a JSON-RPC error); null
     *                 for a request whose path could not be read
     * @param restBody the HTTP+JSON error body of an error answered with a status
     * @param jsonRpcBody the JSON-RPC error body of the same
     */
    public A2aErrorPage(Predicate<String> restPath, BiFunction<A2aException, Integer, String> restBody,
                        BiFunction<A2aException, Integer, String> jsonRpcBody) {
        this.restPath = restPath;
        this.restBody = restBody;
        this.jsonRpcBody = jsonRpcBody;
        setShowStacks(false);
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        // A request Jetty could not read has lost its path; the predicate is asked about null then.
        String path = cause instanceof HttpException || request.getHttpURI() == null ? null : request.getHttpURI().getPath();
        boolean rest = restPath.test(path);
        String text = "HTTP " + code + (message == null || message.isBlank() ? "" : ": " + message);
        A2aError error = code == 404 ? A2aError.METHOD_NOT_FOUND : code >= 500 ? A2aError.INTERNAL
                // PEER (@a2a-js/sdk 1.2.0): on HTTP+JSON a request it cannot read is INVALID_PARAMS.
                : rest && code == 400 ? A2aError.INVALID_PARAMS : A2aError.INVALID_REQUEST;
        A2aException e = error.exception(text);
        // PROTOCOL (A2A 1.0.0 §9.1, §11.1): both bindings answer application/json.
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, rest ? restBody.apply(e, code) : jsonRpcBody.apply(e, code), callback);
    }
}
