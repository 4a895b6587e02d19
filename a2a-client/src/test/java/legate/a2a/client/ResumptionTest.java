package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The waits between resume attempts, as the README promises them, and the config's defaults. */
class ResumptionTest {

    // README "legate client": 5 attempts, 0.2, 0.4, 0.8, 1.6 and 3.2 s apart, on by default.
    @Test
    void theDefaultDoublesFrom200MillisecondsOverFiveAttemptsAndIsOnByDefault() {
        assertThat(IntStream.rangeClosed(1, Resumption.DEFAULT.attempts()).mapToObj(Resumption.DEFAULT::delay))
                .containsExactly(Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800),
                        Duration.ofMillis(1600), Duration.ofMillis(3200));
        assertThat(ClientConfig.defaults().resumption()).isEqualTo(Resumption.DEFAULT);
        assertThat(Resumption.OFF.enabled()).isFalse();
    }

    // A long run of attempts never waits longer than MAX_DELAY between two of them.
    @Test
    void aWaitNeverExceedsTheMaximum() {
        Resumption many = new Resumption(40, Duration.ofSeconds(1));

        assertThat(many.delay(40)).isEqualTo(Resumption.MAX_DELAY);
        assertThat(many.delay(3)).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void negativeAttemptsOrBackoffAreRefused() {
        assertThatThrownBy(() -> new Resumption(-1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Resumption(1, Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
