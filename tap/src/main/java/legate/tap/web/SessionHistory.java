package legate.tap.web;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import legate.tap.show.EventLine;
import legate.tap.show.ExchangeEvent;
import legate.wire.json.WireJson;

/**
 * The session the inspector shows: every event the tap reported, as the event and its JSON line,
 * oldest first, and the pages that follow it live. A page that opens gets the history and then
 * every later event, with none missed or repeated (both happen under one lock).
 *
 * <p>Bounded by events and by bytes: when full, the oldest events go, and the page says how many
 * were dropped. Adding never waits for a page ({@link BrowserFeed#offer} only queues).
 */
final class SessionHistory {
    /** One event as it is kept: the event (for export) and its line (for pages). */
    record Entry(ExchangeEvent event, String line) {
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

    /** Keeps the event and queues it for every open page; never waits. */
    void add(ExchangeEvent event) {
        Entry entry = new Entry(event, WireJson.write(EventLine.of(event)));
        lock.lock();
        try {
            entries.addLast(entry);
            bytes += entry.line().length();
            while (entries.size() > maxEvents || (bytes > maxBytes && entries.size() > 1)) {
                bytes -= entries.removeFirst().line().length();
                dropped++;
            }
            for (BrowserFeed feed : feeds) {
                feed.offer(entry.line());
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

    /** Every kept event, oldest first. */
    List<ExchangeEvent> events() {
        lock.lock();
        try {
            return entries.stream().map(Entry::event).toList();
        } finally {
            lock.unlock();
        }
    }

    /** Every kept line, oldest first. */
    List<String> lines() {
        lock.lock();
        try {
            return entries.stream().map(Entry::line).toList();
        } finally {
            lock.unlock();
        }
    }

    /** The pages following now. */
    List<BrowserFeed> feeds() {
        return List.copyOf(feeds);
    }
}
