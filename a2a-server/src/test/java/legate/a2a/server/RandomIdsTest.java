package legate.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RandomIdsTest {

    @Test
    void idsAreVersion7UuidsWithTheRfc9562Variant() {
        UUID id = UUID.fromString(RandomIds.next());
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
    }

    @Test
    void theLeading48BitsAreTheUnixMillisecondsSoLaterIdsSortAfterEarlierOnes() {
        // DEFECT: random version-4 ids put each new task on a random page of the store's id
        // indexes; ids must grow with time, in their text form too, since the stores index text.
        long t = 1_764_565_200_000L;
        UUID earlier = RandomIds.next(t);
        UUID later = RandomIds.next(t + 1);
        assertThat(earlier.getMostSignificantBits() >>> 16).isEqualTo(t);
        assertThat(earlier.toString()).isLessThan(later.toString());
    }

    @Test
    void idsWithinOneMillisecondStillDiffer() {
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertThat(seen.add(RandomIds.next(1_764_565_200_000L))).isTrue();
        }
    }
}
