package legate.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import legate.testsupport.ManualClock;
import org.junit.jupiter.api.Test;

/** The heartbeat and the silence gate of a2a_ask, on a clock the test steps. */
class UpstreamWatchTest {
    private final ManualClock clock = new ManualClock();
    private final UpstreamWatch watch = new UpstreamWatch(clock, Duration.ofSeconds(25), Duration.ofSeconds(600));

    private void advance(long seconds) {
        clock.advance(Duration.ofSeconds(seconds));
    }

    @Test
    void aHeartbeatIsDueAfterEachHeartbeatIntervalOfQuiet() {
        advance(24);
        assertThat(watch.due()).isEqualTo(UpstreamWatch.Due.NOTHING);
        assertThat(watch.untilDue()).isEqualTo(Duration.ofSeconds(1));
        advance(1);
        assertThat(watch.due()).isEqualTo(UpstreamWatch.Due.HEARTBEAT);
        assertThat(watch.due()).isEqualTo(UpstreamWatch.Due.NOTHING);
        advance(25);
        assertThat(watch.due()).isEqualTo(UpstreamWatch.Due.HEARTBEAT);
    }

    // A wedged agent must not be kept alive by a timer: ticks do not reset the silence gate.
    @Test
    void heartbeatsDoNotHoldOffTheSilenceGate() {
        for (int i = 0; i < 23; i++) {
            advance(25);
            assertThat(watch.due()).isEqualTo(UpstreamWatch.Due.HEARTBEAT);
        }
        advance(25);
        assertThat(watch.due()).isEqualTo(UpstreamWatch.Due.GIVE_UP);
        assertThat(watch.quiet()).isEqualTo(Duration.ofSeconds(600));
    }

    @Test
    void anUpstreamEventStartsBothTimersOver() {
        advance(599);
        watch.eventSeen();
        advance(599);
        assertThat(watch.due()).isEqualTo(UpstreamWatch.Due.HEARTBEAT);
        advance(1);
        assertThat(watch.due()).isEqualTo(UpstreamWatch.Due.GIVE_UP);
    }
}
