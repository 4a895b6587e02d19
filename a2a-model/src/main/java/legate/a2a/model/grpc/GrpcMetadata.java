package legate.a2a.model.grpc;

import io.grpc.Metadata;
import legate.a2a.model.A2aHeaders;

/**
 * The service parameters of the gRPC binding as metadata keys (A2A §10, §3.2.6): the HTTP headers of
 * the other bindings, lower-cased as gRPC metadata keys are.
 */
public final class GrpcMetadata {
    /** PROTOCOL (A2A §3.6): {@code a2a-version}, Major.Minor; absent means 0.3. */
    public static final Metadata.Key<String> VERSION = ascii(A2aHeaders.VERSION);
    /** PROTOCOL (A2A §3.2.6): {@code a2a-extensions}, comma-separated URIs. */
    public static final Metadata.Key<String> EXTENSIONS = ascii(A2aHeaders.EXTENSIONS);
    /**
     * Legate's resumable streams extension: the {@code Last-Event-ID} a SubscribeToTask resumes
     * after, as the JSON-RPC binding reads it from the SSE header of that name.
     */
    public static final Metadata.Key<String> LAST_EVENT_ID = ascii("last-event-id");
    /**
     * Legate's resumable streams extension: in a server stream's response headers, the id of its
     * first message; each message after it is the task's next event, one id further on. gRPC
     * messages carry no id of their own, as SSE frames do.
     */
    public static final Metadata.Key<String> FIRST_EVENT_ID = ascii("legate-first-event-id");

    private GrpcMetadata() {
    }

    public static Metadata.Key<String> ascii(String name) {
        return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    }
}
