package legate.tap.web;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import legate.tap.show.EncodedLine;
import legate.tap.show.EventLine;
import legate.tap.show.ExchangeEvent;
import legate.wire.json.WireJson;

/**
 * The session the inspector shows: every event the tap reported, as its JSON line, oldest first, and
 * the pages that follow it live. A page that opens gets the history and then every later event, with
 * none missed or repeated (both happen under one lock).
 *
 * <p>Each event is kept as one byte array, its line encoded once ({@link EncodedLine}) for the
 * history, every page and the exports: the profile with a page open found the garbage collector
 * spending most of its time tracing the tens of thousands of events the history held as objects
 * (records, header lists, strings) beside their lines. Exports read the lines back into events.
 *
 * <p>Bounded by events and by bytes: when full, the oldest events go, and the page says how many
 * were dropped. Adding never waits for a page ({@link BrowserFeed#offer} only queues).
 */
final class SessionHistory {
    /** One event as it is kept: its exchange, its line whole, and what the live feed sends of it ({@link PageLine}). */
    record Entry(long exchange, byte[] line, byte[] page) {
        static Entry of(ExchangeEvent event, JsonNode body) {
            EncodedLine l = EncodedLine.of(event);
            return new Entry(event.exchange(), l.bytes(), PageLine.of(l, body));
        }

        int size() {
            return line.length + page.length;
        }
    }

    /** What a page gets when it opens: the history, and how many older events were already dropped. */
    record Snapshot(List<Entry> entries, long dropped) {
    }

    private final int maxEvents;
    private final long maxBytes;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final List<BrowserFeed> feeds = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private long bytes;
    private long dropped;

    SessionHistory(int maxEvents, long maxBytes) {
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
    }

    /**
     * Keeps the event and queues it for every open page; never waits.
     *
     * @param body the event's body as the protocol check read it, for the facts the page is sent
     */
    void add(ExchangeEvent event, JsonNode body) {
        Entry entry = Entry.of(event, body);
        lock.lock();
        try {
            entries.addLast(entry);
            bytes += entry.size();
            while (entries.size() > maxEvents || (bytes > maxBytes && entries.size() > 1)) {
                bytes -= entries.removeFirst().size();
                dropped++;
            }
            for (BrowserFeed feed : feeds) {
                feed.offer(entry);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The history as it stands, and the feed registered for what comes after it, atomically. */
    Snapshot follow(BrowserFeed feed) {
        lock.lock();
        try {
            feeds.add(feed);
            return new Snapshot(new ArrayList<>(entries), dropped);
        } finally {
            lock.unlock();
        }
    }

    void unfollow(BrowserFeed feed) {
        feeds.remove(feed);
    }

    /** Every kept event, oldest first, read back from its line. */
    List<ExchangeEvent> events() {
        List<ExchangeEvent> events = new ArrayList<>();
        for (Entry e : entries()) {
            try {
                JsonNode line = WireJson.mapper().readTree(e.line());
                events.add(EventLine.read(line));
            } catch (IOException x) {
                throw new UncheckedIOException("a kept line is not JSON", x);
            }
        }
        return events;
    }

    /** Every kept line, oldest first, whole. */
    List<Entry> entries() {
        lock.lock();
        try {
            return new ArrayList<>(entries);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The kept lines of these exchanges, whole (headers and bodies included), oldest first: what a
     * task's, a context's or an exchange's view asks for when it is drawn.
     */
    List<Entry> exchanges(Set<Long> wanted) {
        List<Entry> found = new ArrayList<>();
        lock.lock();
        try {
            for (Entry e : entries) {
                if (wanted.contains(e.exchange())) {
                    found.add(e);
                }
            }
        } finally {
            lock.unlock();
        }
        return found;
    }

    /** The pages following now. */
    List<BrowserFeed> feeds() {
        return List.copyOf(feeds);
    }
}
