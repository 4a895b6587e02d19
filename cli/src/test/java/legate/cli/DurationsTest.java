package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** TASK_RETENTION's and PUSH_MAX_AGE's durations: what a user writes, and a clear error for what Legate cannot read. */
class DurationsTest {
    @Test
    void aWholeNumberAndAUnitOrZeroAlone() {
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(Durations.parse("12h")).isEqualTo(Duration.ofHours(12));
        assertThat(Durations.parse(" 7d ")).isEqualTo(Duration.ofDays(7));
        assertThat(Durations.parse("0")).isZero();
        assertThat(Durations.parse("0s")).isZero();
        // PUSH_MAX_AGE and the tests' backoffs are written in milliseconds too.
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void anythingElseSaysHowToWriteOne() {
        for (String bad : new String[] {"", "7", "d", "7 d", "7D", "1.5h", "-1h", "+1h", "7w", "1M", "9999999999d", "ms", "5 ms", "1.5ms", "5MS"}) {
            assertThatThrownBy(() -> Durations.parse(bad)).as("\"%s\"", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("\"" + bad + "\"").hasMessageContaining("30s, 10m, 12h, 7d");
        }
    }
}
