package legate.mcp.upstream;

import java.time.Clock;
import java.time.Duration;

/**
 * The two timers of an a2a_ask turn: a heartbeat due after {@code heartbeat} of upstream quiet
 * (and again after each further {@code heartbeat}), and the silence gate, which gives the turn up
 * after {@code silence} without a single upstream event.
 *
 * <p>The heartbeat keeps the caller's connection and request timer alive while an agent thinks.
 * It must never keep a wedged agent alive: only an upstream event resets the silence gate, a tick
 * does not. The clock is a seam, so tests step time instead of sleeping. Single-threaded.
 */
public final class UpstreamWatch {
    /** What is due now. */
    public enum Due { NOTHING, HEARTBEAT, GIVE_UP }

    private final Clock clock;
    private final long heartbeatMillis;
    private final long silenceMillis;
    private long lastEvent;
    private long lastBeat;

    public UpstreamWatch(Clock clock, Duration heartbeat, Duration silence) {
        this.clock = clock;
        this.heartbeatMillis = heartbeat.toMillis();
        this.silenceMillis = silence.toMillis();
        this.lastEvent = clock.millis();
        this.lastBeat = lastEvent;
    }

    /** An upstream event arrived: both timers start over. */
    public void eventSeen() {
        lastEvent = clock.millis();
        lastBeat = lastEvent;
    }

    /** How long to wait for the next event before something is due; at least a millisecond. */
    public Duration untilDue() {
        long now = clock.millis();
        long next = Math.min(lastBeat + heartbeatMillis, lastEvent + silenceMillis);
        return Duration.ofMillis(Math.max(1, next - now));
    }

    /** What is due now; a heartbeat counts as sent once reported. */
    public Due due() {
        long now = clock.millis();
        if (now - lastEvent >= silenceMillis) {
            return Due.GIVE_UP;
        }
        if (now - lastBeat >= heartbeatMillis) {
            lastBeat = now;
            return Due.HEARTBEAT;
        }
        return Due.NOTHING;
    }

    /** How long upstream has been quiet. */
    public Duration quiet() {
        return Duration.ofMillis(clock.millis() - lastEvent);
    }
}
