package legate.a2a.server.rest;

import com.fasterxml.jackson.databind.JsonNode;
import legate.a2a.server.Principal;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.util.Fields;

/**
 * One REST request as an operation sees it, once the edge has let it through.
 *
 * @param body the JSON body, an empty object when the request has none
 * @param query the query parameters, decoded
 * @param headers the request's headers, for the few operations a header changes (Last-Event-ID)
 * @param caller whom the edge authenticated
 */
record RestCall(RestRoute route, JsonNode body, Fields query, HttpFields headers, Principal caller) {
}
