package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The index's bounded map answers as a LinkedHashMap that lets its eldest go would. */
class RingMapTest {
    // DEFECT: an open-addressed table that lets entries go must shift the cells after them back,
    // or a key whose probe passed over a removed cell is no longer found (a task's view would say
    // "no such task" for a task the list shows).
    @Test
    void lookupsStayRightThroughManyEvictions() {
        Random random = new Random(17);
        for (int capacity : List.of(1, 2, 7, 37, 1000)) {
            RingMap<Integer> ring = new RingMap<>(capacity);
            Map<String, Integer> model = new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                    return size() > capacity;
                }
            };
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                String key = "t-" + random.nextInt(capacity * 3 + 5);
                if (model.containsKey(key)) {
                    assertThat(ring.get(key)).as("%s in a ring of %d", key, capacity).isEqualTo(model.get(key));
                    continue;
                }
                assertThat(ring.get(key)).as("%s, let go or never put", key).isNull();
                ring.put(key, i);
                model.put(key, i);
                seen.add(key);
            }
            for (String key : seen) {
                assertThat(ring.get(key)).as(key).isEqualTo(model.get(key));
            }
            List<Integer> newestFirst = new ArrayList<>(model.values());
            Collections.reverse(newestFirst);
            assertThat(ring.newestFirst()).isEqualTo(newestFirst);
            assertThat(ring.size()).isEqualTo(model.size());
        }
    }
}
