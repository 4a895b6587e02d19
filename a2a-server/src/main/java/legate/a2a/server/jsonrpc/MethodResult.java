package legate.a2a.server.jsonrpc;

import legate.a2a.server.task.Subscription;

/** What an A2A method answers over JSON-RPC: one result, or a stream of results. */
public sealed interface MethodResult {
    /** A single result, already printed as ProtoJSON. */
    record Unary(String json) implements MethodResult {
    }

    /** PROTOCOL (A2A §9.4.2): SendStreamingMessage and SubscribeToTask answer as Server-Sent Events. */
    record Stream(Subscription subscription) implements MethodResult {
    }
}
