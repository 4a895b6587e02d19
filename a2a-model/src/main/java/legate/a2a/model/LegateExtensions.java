package legate.a2a.model;

/**
 * The A2A extensions Legate defines (A2A §4.6): each is declared in {@code capabilities.extensions}
 * of the Agent Card by its URI, so any client can discover it. The README's "Tasks that last"
 * section says what a client does with each.
 */
public final class LegateExtensions {
    /**
     * Every SSE frame of SendStreamingMessage and SubscribeToTask carries {@code id: <n>}, the task
     * event's sequence number (the same on every stream), and SubscribeToTask with a
     * {@code Last-Event-ID} header replays the task's events after that one before going on live.
     * A client remembers the last id it read and, when a stream is cut, resumes with it. On gRPC,
     * whose messages carry no id, a stream's response headers name its first message's id
     * ({@code legate-first-event-id}) and each later message is the next event; the resubscription
     * carries {@code last-event-id} metadata.
     */
    public static final String RESUMABLE_STREAMS = "urn:legate:a2a:ext:resumable-streams:v1";

    private LegateExtensions() {
    }
}
