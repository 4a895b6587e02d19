package legate.a2a.server.rest;

import legate.a2a.server.task.Subscription;

/** What an A2A operation answers over HTTP+JSON: one body, or a stream of events. */
sealed interface RestResult {
    /** One body with its status, already printed as ProtoJSON. */
    record Unary(int status, String json) implements RestResult {
    }

    /** PROTOCOL (A2A §11.7): message:stream and :subscribe answer as Server-Sent Events. */
    record Stream(Subscription subscription) implements RestResult {
    }
}
