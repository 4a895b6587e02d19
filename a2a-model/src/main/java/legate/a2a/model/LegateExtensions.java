package legate.a2a.model;

/**
 * A2A extensions Legate declares in its cards.
 */
public final class LegateExtensions {
    /**
     * Resumable streams: every SSE frame carries the task event's sequence number as its {@code id:},
     * and SubscribeToTask with a {@code Last-Event-ID} header replays the events after that one.
     */
    public static final String RESUMABLE_STREAMS = "urn:legate:a2a:ext:resumable-streams:v1";

    private LegateExtensions() {
    }
}
