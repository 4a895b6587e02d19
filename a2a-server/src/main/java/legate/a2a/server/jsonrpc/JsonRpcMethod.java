package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import legate.a2a.server.Principal;
import org.eclipse.jetty.http.HttpFields;

/**
 * One A2A operation as JSON-RPC sees it: params in (already checked to be an object), with the
 * request's HTTP headers for the few operations a header changes and the principal the edge
 * authenticated, and a result out.
 */
@FunctionalInterface
public interface JsonRpcMethod {
    MethodResult call(JsonNode params, HttpFields headers, Principal caller);
}
