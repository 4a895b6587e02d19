package legate.tap.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import legate.tap.show.DeferredLine;

/**
 * The inspector's history of events with no object per event: each event's line without its body
 * and the body's bytes ({@link DeferredLine}) copied into one ring of bytes, and what locates them in
 * rings of numbers. Bounded by events and by bytes; when full, the oldest go.
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
    private static final byte NO_BODY = 0;
    private static final byte BYTES = 1;
    /** A frame's data, kept as its UTF-8 bytes and read back as the String it was. */
    private static final byte FRAME_DATA = 2;

    private final int maxEvents;
    private final int maxBytes;
    private byte[] ring = new byte[0];
    /** Logical offsets, counted from the first byte ever kept: the ring holds [start, end). */
    private long start;
    private long end;
    private final long[] exchanges;
    private final long[] offsets;
    private final int[] headLengths;
    private final int[] bodyAts;
    private final int[] bodyLengths;
    private final byte[] kinds;
    /** Event sequence numbers: the ring holds events [first, next). */
    private long first;
    private long next;
    private long dropped;

    EventRing(int maxEvents, long maxBytes) {
        this.maxEvents = maxEvents;
        this.maxBytes = (int) Math.min(maxBytes, Integer.MAX_VALUE / 2);
        exchanges = new long[maxEvents];
        offsets = new long[maxEvents];
        headLengths = new int[maxEvents];
        bodyAts = new int[maxEvents];
        bodyLengths = new int[maxEvents];
        kinds = new byte[maxEvents];
    }

    /** Keeps the event, letting the oldest go when full. A body larger than the whole history is not kept. */
    void add(long exchange, DeferredLine line) {
        byte[] head = line.head();
        byte kind = line.body() instanceof byte[] ? BYTES : line.body() instanceof String ? FRAME_DATA : NO_BODY;
        byte[] body = switch (kind) {
            case BYTES -> (byte[]) line.body();
            case FRAME_DATA -> ((String) line.body()).getBytes(StandardCharsets.UTF_8);
            default -> new byte[0];
        };
        if ((long) head.length + body.length > maxBytes) {
            kind = NO_BODY;
            body = new byte[0];
        }
        int need = head.length + body.length;
        while (next - first >= maxEvents || (end - start) + need > maxBytes) {
            dropOldest();
        }
        ensureCapacity((end - start) + need);
        int slot = slot(next);
        exchanges[slot] = exchange;
        offsets[slot] = end;
        headLengths[slot] = head.length;
        bodyAts[slot] = line.bodyAt();
        bodyLengths[slot] = body.length;
        kinds[slot] = kind;
        copyIn(head, end);
        copyIn(body, end + head.length);
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
        byte[] head = copyOut(offsets[slot], headLengths[slot]);
        byte[] body = copyOut(offsets[slot] + headLengths[slot], bodyLengths[slot]);
        Object kept = switch (kinds[slot]) {
            case BYTES -> body;
            case FRAME_DATA -> new String(body, StandardCharsets.UTF_8);
            default -> null;
        };
        return new SessionHistory.Entry(exchanges[slot], new DeferredLine(head, bodyAts[slot], kept));
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
        copyIn(live, start);
    }

    private int slot(long seq) {
        return (int) (seq % maxEvents);
    }

    /** Copies {@code bytes} to logical offset {@code at}, wrapping at the ring's end. */
    private void copyIn(byte[] bytes, long at) {
        if (bytes.length == 0) {
            return;
        }
        int from = (int) (at % ring.length);
        int part = Math.min(bytes.length, ring.length - from);
        System.arraycopy(bytes, 0, ring, from, part);
        System.arraycopy(bytes, part, ring, 0, bytes.length - part);
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
