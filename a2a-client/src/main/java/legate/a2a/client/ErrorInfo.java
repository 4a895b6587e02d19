package legate.a2a.client;

import java.util.Map;

/**
 * The {@code google.rpc.ErrorInfo} detail of an A2A error (A2A §9.5): the machine-readable reason
 * (the error's name in UPPER_SNAKE_CASE, such as {@code TASK_NOT_FOUND}), the domain that defines it
 * ({@code a2a-protocol.org} for A2A's own errors) and optional string metadata.
 */
public record ErrorInfo(String reason, String domain, Map<String, String> metadata) {
    public ErrorInfo {
        reason = reason == null ? "" : reason;
        domain = domain == null ? "" : domain;
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }
}
