package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The index's bounded set of ids answers as a LinkedHashMap that lets its eldest go would. */
class IdRingTest {
    // DEFECT: an open-addressed table that lets entries go must shift the cells after them back,
    // or a key whose probe passed over a removed cell is no longer found (a task's view would say
    // "no such task" for a task the list shows).
    @Test
    void lookupsStayRightThroughManyEvictions() {
        Random random = new Random(17);
        for (int capacity : List.of(1, 2, 7, 37, 1000)) {
            IdRing ring = new IdRing(capacity);
            // What the index would keep in a column of the ring's slots.
            int[] column = new int[capacity];
            Map<String, Integer> model = new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                    return size() > capacity;
                }
            };
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                String key = "t-" + random.nextInt(capacity * 3 + 5);
                long reference = ring.find(key);
                if (model.containsKey(key)) {
                    assertThat(reference).as("%s in a ring of %d", key, capacity).isNotNegative();
                    assertThat(ring.id(reference)).isEqualTo(key);
                    assertThat(column[ring.slot(reference)]).isEqualTo(model.get(key));
                    continue;
                }
                assertThat(reference).as("%s, let go or never put", key).isEqualTo(-1);
                column[ring.slot(ring.add(key))] = i;
                model.put(key, i);
                seen.add(key);
            }
            for (String key : seen) {
                long reference = ring.find(key);
                assertThat(reference < 0 ? null : column[ring.slot(reference)]).as(key).isEqualTo(model.get(key));
            }
            List<Integer> newestFirst = new ArrayList<>(model.values());
            Collections.reverse(newestFirst);
            List<Integer> ringNewestFirst = new ArrayList<>();
            for (int i = 0; i < ring.size(); i++) {
                ringNewestFirst.add(column[ring.slot(ring.newest(i))]);
            }
            assertThat(ringNewestFirst).isEqualTo(newestFirst);
            assertThat(ring.size()).isEqualTo(model.size());
        }
    }

    // A reference names one id for as long as the ring holds it, and nothing once it is let go:
    // a row that named a task long gone must not show the id that took its slot.
    @Test
    void aReferenceNeverNamesTheIdThatTookItsSlot() {
        IdRing ring = new IdRing(3);
        long a = ring.add("a");
        ring.add("b");
        ring.add("c");
        assertThat(ring.id(a)).isEqualTo("a");
        long d = ring.add("d");
        assertThat(ring.id(d)).isEqualTo("d");
        assertThat(ring.id(a)).isNull();
        assertThat(ring.slot(a)).isEqualTo(-1);
        assertThat(ring.find("a")).isEqualTo(-1);
        assertThat(ring.find("d")).isEqualTo(d);
    }

    // The text is kept in a ring of bytes bounded too: long ids let older ones go before the slots
    // run out, and an id whose bytes wrap round the ring's end reads back whole.
    @Test
    void longIdsLetTheOldestGoAndReadBackWholeAcrossTheRingsEnd() {
        IdRing ring = new IdRing(16);
        List<String> added = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // 16 slots hold 1 KiB of text: ids of 300-odd bytes, some not ASCII, fill it first.
            String id = "ü-" + i + "-" + "x".repeat(300 + i % 7);
            long reference = ring.add(id);
            added.add(id);
            assertThat(ring.id(reference)).isEqualTo(id);
            assertThat(ring.find(id)).isEqualTo(reference);
        }
        assertThat(ring.size()).isLessThan(16);
        for (int i = 0; i < added.size(); i++) {
            long reference = ring.find(added.get(i));
            assertThat(reference >= 0).as("id %d held", i).isEqualTo(i >= added.size() - ring.size());
        }
    }

    @Test
    void anIdTooLongToKeepIsNotKept() {
        IdRing ring = new IdRing(4);
        String huge = "t".repeat(IdRing.MAX_ID_BYTES + 1);
        assertThat(ring.add(huge)).isEqualTo(-1);
        assertThat(ring.find(huge)).isEqualTo(-1);
        assertThat(ring.size()).isZero();
    }

    // Ids whose hashes collide are told apart by their text, not their hash.
    @Test
    void idsWithTheSameHashAreDistinct() {
        IdRing ring = new IdRing(4);
        assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
        long a = ring.add("Aa");
        assertThat(ring.find("BB")).isEqualTo(-1);
        long b = ring.add("BB");
        assertThat(ring.find("Aa")).isEqualTo(a);
        assertThat(ring.find("BB")).isEqualTo(b).isNotEqualTo(a);
    }
}
