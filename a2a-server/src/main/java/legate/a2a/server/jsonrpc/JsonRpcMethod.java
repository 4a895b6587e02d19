package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/** One A2A operation as JSON-RPC sees it: params in (already checked to be an object), a result out. */
@FunctionalInterface
interface JsonRpcMethod {
    MethodResult call(JsonNode params);
}
