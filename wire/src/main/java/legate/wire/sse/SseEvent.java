package legate.wire.sse;

/** One dispatched Server-Sent Event: its type ("message" when unnamed), data and last event id. */
public record SseEvent(String event, String data, String id) {
    public SseEvent {
        if (event == null || event.isEmpty()) {
            event = "message";
        }
    }
}
