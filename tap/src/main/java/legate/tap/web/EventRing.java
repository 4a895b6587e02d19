package legate.tap.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import legate.tap.show.ExchangeEvent;

/**
 * The inspector's history of events with no object per event: each event packed ({@link PackedEvent})
 * into one ring of bytes, and what locates them in rings of numbers. Bounded by events and by
 * bytes; when full, the oldest go.
 *
 * <p>Why not a queue of byte arrays: measured with bench workload 8, the tap with its page open
 * spent about 20 µs a request in its (serial) collector, copying each kept event out of the young
 * generation; the history's arrays were half of what it copied. Copies into a ring that lives in
 * the old generation cost the collector nothing. The ring grows by doubling up to its bound, so a
 * quiet tap holds little.
 *
 * <p>Not thread-safe: {@link SessionHistory} holds its lock around every call.
 */
final class EventRing {
    private static final int FIRST_CAPACITY = 1 << 20;

    private final int maxEvents;
    private final int maxBytes;
    private final PackedEvent.Packer packer = new PackedEvent.Packer();
    private byte[] ring = new byte[0];
    /** Logical offsets, counted from the first byte ever kept: the ring holds [start, end). */
    private long start;
    private long end;
    private final long[] exchanges;
    private final long[] offsets;
    private final int[] lengths;
    /** Event sequence numbers: the ring holds events [first, next). */
    private long first;
    private long next;
    private long dropped;

    EventRing(int maxEvents, long maxBytes) {
        this.maxEvents = maxEvents;
        this.maxBytes = (int) Math.min(maxBytes, Integer.MAX_VALUE / 2);
        exchanges = new long[maxEvents];
        offsets = new long[maxEvents];
        lengths = new int[maxEvents];
    }

    /** Keeps the event, letting the oldest go when full. A body larger than the whole history is not kept. */
    void add(ExchangeEvent event) {
        packer.pack(event, true);
        if (packer.size() > maxBytes) {
            packer.pack(event, false);
        }
        int need = packer.size();
        while (next - first >= maxEvents || (end - start) + need > maxBytes) {
            dropOldest();
        }
        ensureCapacity((end - start) + need);
        int slot = slot(next);
        exchanges[slot] = event.exchange();
        offsets[slot] = end;
        lengths[slot] = need;
        copyIn(packer.bytes(), need, end);
        end += need;
        next++;
    }

    /** Events let go so far. */
    long dropped() {
        return dropped;
    }

    int size() {
        return (int) (next - first);
    }

    /** The bytes held. */
    long bytes() {
        return end - start;
    }

    /** Every kept event, oldest first. */
    List<SessionHistory.Entry> all() {
        List<SessionHistory.Entry> all = new ArrayList<>(size());
        for (long seq = first; seq < next; seq++) {
            all.add(read(seq));
        }
        return all;
    }

    /** The kept events of these exchanges, oldest first; only theirs are read. */
    List<SessionHistory.Entry> of(Set<Long> wanted) {
        List<SessionHistory.Entry> found = new ArrayList<>();
        for (long seq = first; seq < next; seq++) {
            if (wanted.contains(exchanges[slot(seq)])) {
                found.add(read(seq));
            }
        }
        return found;
    }

    private SessionHistory.Entry read(long seq) {
        int slot = slot(seq);
        return new SessionHistory.Entry(exchanges[slot], PackedEvent.unpack(copyOut(offsets[slot], lengths[slot])));
    }

    private void dropOldest() {
        first++;
        dropped++;
        start = first == next ? end : offsets[slot(first)];
    }

    private void ensureCapacity(long needed) {
        if (needed <= ring.length) {
            return;
        }
        long capacity = Math.max(FIRST_CAPACITY, ring.length);
        while (capacity < needed) {
            capacity *= 2;
        }
        byte[] grown = new byte[(int) Math.min(capacity, maxBytes)];
        byte[] live = copyOut(start, (int) (end - start));
        ring = grown;
        copyIn(live, live.length, start);
    }

    private int slot(long seq) {
        return (int) (seq % maxEvents);
    }

    /** Copies the first {@code length} of {@code bytes} to logical offset {@code at}, wrapping at the ring's end. */
    private void copyIn(byte[] bytes, int length, long at) {
        if (length == 0) {
            return;
        }
        int from = (int) (at % ring.length);
        int part = Math.min(length, ring.length - from);
        System.arraycopy(bytes, 0, ring, from, part);
        System.arraycopy(bytes, part, ring, 0, length - part);
    }

    private byte[] copyOut(long at, int length) {
        byte[] out = new byte[length];
        if (length == 0) {
            return out;
        }
        int from = (int) (at % ring.length);
        int part = Math.min(length, ring.length - from);
        System.arraycopy(ring, from, out, 0, part);
        System.arraycopy(ring, 0, out, part, length - part);
        return out;
    }
}
