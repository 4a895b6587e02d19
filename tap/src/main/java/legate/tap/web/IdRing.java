package legate.tap.web;

import java.nio.charset.StandardCharsets;

/**
 * A bounded set of ids in the order they were first added, the oldest let go when full: the
 * index's tasks and contexts. An id is named by a reference, a number counting the ids ever
 * added, which stays valid until the id is let go ({@link #slot}); what the index knows of an id
 * sits in its own columns, arrays indexed by the slot its reference gives.
 *
 * <p>No object per id: each id's UTF-8 text is copied into one ring of bytes, and the lookup is an
 * open-addressed table of slots, ints, with each slot's hash kept so a probe compares ints and
 * reads the text only when the hash matches. Why: measured with bench workload 8, every object
 * the index kept per request (a row, a task, their ids as Strings) was copied by the tap's serial
 * collector through the young generation's survivor spaces up to fifteen times before it was
 * promoted, and that copying was most of what the page cost the tap. A ring that lives in the old
 * generation costs the collector nothing.
 *
 * <p>Not thread-safe.
 */
final class IdRing {
    /** An id longer than this is not kept: no A2A id comes near it, and the ring's bytes stay bounded. */
    static final int MAX_ID_BYTES = 1024;
    private static final int BYTES_PER_ID = 64;

    private final int capacity;
    private final byte[] text;
    private final long[] offsets;
    private final int[] lengths;
    private final int[] hashes;
    /** Linear probing over slots + 1; 0 is an empty cell. */
    private final int[] table;
    private final int mask;
    /** References: the ring holds the ids [first, next). */
    private long first;
    private long next;
    /** Logical byte offsets: the ring holds the text [start, end). */
    private long start;
    private long end;

    IdRing(int capacity) {
        this.capacity = capacity;
        text = new byte[Math.max(MAX_ID_BYTES, capacity * BYTES_PER_ID)];
        offsets = new long[capacity];
        lengths = new int[capacity];
        hashes = new int[capacity];
        table = new int[Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) * 2];
        mask = table.length - 1;
    }

    /** The reference of {@code id}, or -1 when it is not (or no longer) held. */
    long find(String id) {
        int h = hash(id);
        byte[] utf8 = null;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int s = table[i] - 1;
            if (s < 0) {
                return -1;
            }
            if (hashes[s] == h) {
                if (utf8 == null) {
                    utf8 = id.getBytes(StandardCharsets.UTF_8);
                }
                if (holds(s, utf8)) {
                    return reference(s);
                }
            }
        }
    }

    /**
     * Adds an id it does not hold yet, letting the oldest go when full, and returns its reference;
     * -1 when the id is too long to keep. The caller then sets the slot's columns, which still say
     * what they said of the id let go.
     */
    long add(String id) {
        byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > MAX_ID_BYTES) {
            return -1;
        }
        while (next - first >= capacity || (end - start) + utf8.length > text.length) {
            dropOldest();
        }
        int s = (int) (next % capacity);
        int h = hash(id);
        offsets[s] = end;
        lengths[s] = utf8.length;
        hashes[s] = h;
        copyIn(utf8, end);
        end += utf8.length;
        int i = h & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = s + 1;
        return next++;
    }

    /** The slot of the id {@code reference} names, or -1 when it was let go (or never added). */
    int slot(long reference) {
        return reference >= first && reference < next ? (int) (reference % capacity) : -1;
    }

    /** The id {@code reference} names, or null when it was let go. */
    String id(long reference) {
        int s = slot(reference);
        return s < 0 ? null : idAt(s);
    }

    /** The id in a slot that holds one. */
    String idAt(int s) {
        int from = (int) (offsets[s] % text.length);
        int part = Math.min(lengths[s], text.length - from);
        if (part == lengths[s]) {
            return new String(text, from, part, StandardCharsets.UTF_8);
        }
        byte[] whole = new byte[lengths[s]];
        System.arraycopy(text, from, whole, 0, part);
        System.arraycopy(text, 0, whole, part, lengths[s] - part);
        return new String(whole, StandardCharsets.UTF_8);
    }

    int size() {
        return (int) (next - first);
    }

    /** The reference of the {@code i}th newest id, {@code 0 <= i < size()}. */
    long newest(int i) {
        return next - 1 - i;
    }

    private long reference(int slot) {
        // The held references are [first, next); slot s holds the one congruent to s.
        long r = first - Math.floorMod(first, (long) capacity) + slot;
        return r < first ? r + capacity : r;
    }

    private boolean holds(int slot, byte[] utf8) {
        if (lengths[slot] != utf8.length) {
            return false;
        }
        int at = (int) (offsets[slot] % text.length);
        for (byte b : utf8) {
            if (text[at] != b) {
                return false;
            }
            at = at + 1 == text.length ? 0 : at + 1;
        }
        return true;
    }

    private void dropOldest() {
        int s = (int) (first % capacity);
        int i = hashes[s] & mask;
        while (table[i] != s + 1) {
            i = (i + 1) & mask;
        }
        // Backward-shift deletion: move back the cells the removed one's probe passed over.
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (table[j] == 0) {
                break;
            }
            int k = hashes[table[j] - 1] & mask;
            // The entry at j may move to i only if its home is not cyclically within (i, j].
            boolean stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
            if (!stays) {
                table[i] = table[j];
                i = j;
            }
        }
        table[i] = 0;
        first++;
        start = first == next ? end : offsets[(int) (first % capacity)];
    }

    private void copyIn(byte[] bytes, long at) {
        int from = (int) (at % text.length);
        int part = Math.min(bytes.length, text.length - from);
        System.arraycopy(bytes, 0, text, from, part);
        System.arraycopy(bytes, part, text, 0, bytes.length - part);
    }

    private static int hash(String id) {
        int h = id.hashCode();
        return h ^ (h >>> 16);
    }
}
