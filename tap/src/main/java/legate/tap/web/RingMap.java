package legate.tap.web;

import java.util.ArrayList;
import java.util.List;

/**
 * A bounded map from ids to values in the order they were first put, the oldest let go when full:
 * the index's tasks and contexts. The values sit in a ring, in order; the lookup is an
 * open-addressed table of ring slots, ints, not references.
 *
 * <p>Why not a LinkedHashMap that drops its eldest: measured with bench workload 8, its churn (an
 * entry allocated, linked and unlinked, table slots written, for every task under load) cost the
 * tap's serial collector about 9 µs a request, as much as everything else the page costs the tap.
 * Here a put writes two references into the next slot of the ring and ints into the table, which
 * the collector never scans.
 *
 * <p>Not thread-safe.
 */
final class RingMap<V> {
    private final int capacity;
    private final Object[] values;
    private final String[] keys;
    /** Linear probing over ring slots + 1; 0 is an empty cell. */
    private final int[] table;
    private final int mask;
    private long next;

    RingMap(int capacity) {
        this.capacity = capacity;
        values = new Object[capacity];
        keys = new String[capacity];
        table = new int[Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) * 2];
        mask = table.length - 1;
    }

    @SuppressWarnings("unchecked")
    V get(String key) {
        for (int i = home(key); ; i = (i + 1) & mask) {
            int s = table[i];
            if (s == 0) {
                return null;
            }
            if (keys[s - 1].equals(key)) {
                return (V) values[s - 1];
            }
        }
    }

    /** Puts a value for a key it does not hold yet, letting the oldest go when full. */
    void put(String key, V value) {
        int slot = (int) (next % capacity);
        if (next >= capacity) {
            remove(slot);
        }
        values[slot] = value;
        keys[slot] = key;
        int i = home(key);
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = slot + 1;
        next++;
    }

    int size() {
        return (int) Math.min(next, capacity);
    }

    /** The values, newest first. */
    @SuppressWarnings("unchecked")
    List<V> newestFirst() {
        List<V> out = new ArrayList<>(size());
        for (long seq = next - 1; seq >= next - size(); seq--) {
            out.add((V) values[(int) (seq % capacity)]);
        }
        return out;
    }

    /** Takes the key in {@code slot} out of the table, shifting back the cells its probe passed over. */
    private void remove(int slot) {
        int i = home(keys[slot]);
        while (table[i] != slot + 1) {
            i = (i + 1) & mask;
        }
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (table[j] == 0) {
                break;
            }
            int k = home(keys[table[j] - 1]);
            // The entry at j may move to i only if its home is not cyclically within (i, j].
            boolean stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
            if (!stays) {
                table[i] = table[j];
                i = j;
            }
        }
        table[i] = 0;
        values[slot] = null;
        keys[slot] = null;
    }

    private int home(String key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & mask;
    }
}
