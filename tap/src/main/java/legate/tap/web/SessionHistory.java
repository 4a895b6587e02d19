package legate.tap.web;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import legate.tap.show.EncodedLine;
import legate.tap.show.ExchangeEvent;
import legate.wire.json.WireJson;

/**
 * The session the inspector shows: every event the tap reported, as its JSON line, oldest first;
 * the {@link SessionIndex} its lists are drawn from; and the pages that follow it live. One lock
 * covers all three, so what a page is sent and what it then asks for agree.
 *
 * <p>Each event is kept packed in one ring of bytes ({@link EventRing}) and written as its line
 * only when an export or a view reads it: the profiles with a page open found the collector
 * spending its time on the events the history held as objects, and the listener thread a tenth of
 * the page's cost writing lines that are seldom read.
 *
 * <p>Bounded by events and by bytes: when full, the oldest events go, and the page says how many
 * were let go. Adding never waits for a page ({@link BrowserFeed#changed} only flags).
 */
final class SessionHistory {
    /** The most rows, tasks or contexts a page is sent or given in one list. */
    static final int MAX_LISTED = 200;

    /** One event as it was kept, read back. */
    record Entry(long exchange, ExchangeEvent event) {
        /** Its line, as the log writes it. */
        byte[] line() {
            return EncodedLine.of(event).bytes();
        }
    }

    /** Where one page's feed stands: what it was last sent. */
    static final class PageState {
        long version = -1;
        long problemsSeen;
    }

    private final EventRing entries;
    private final SessionIndex index = new SessionIndex();
    private final List<BrowserFeed> feeds = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    SessionHistory(int maxEvents, long maxBytes) {
        this.entries = new EventRing(maxEvents, maxBytes);
    }

    /**
     * Keeps the event, takes it into the index and tells every open page; never waits.
     *
     * @param body the event's body as the protocol check read it, for what the lists show of it
     */
    void add(ExchangeEvent event, JsonNode body) {
        BodyFacts facts = BodyFacts.of(event, body);
        lock.lock();
        try {
            entries.add(event);
            index.apply(event, facts);
        } finally {
            lock.unlock();
        }
        for (BrowserFeed feed : feeds) {
            feed.changed();
        }
    }

    void follow(BrowserFeed feed) {
        feeds.add(feed);
    }

    void unfollow(BrowserFeed feed) {
        feeds.remove(feed);
    }

    /**
     * The page's next message, or null when nothing changed since its last: the counts, the newest
     * rows that changed since, and the problems flagged since. One JSON object on one line.
     */
    byte[] message(PageState page) {
        lock.lock();
        try {
            if (page.version == index.version()) {
                return null;
            }
            byte[] json = json(g -> {
                g.writeNumberField("version", index.version());
                index.writeCounts(g);
                g.writeNumberField("letGo", entries.dropped());
                g.writeArrayFieldStart("rows");
                for (int row : index.changedAmongNewest(page.version, MAX_LISTED)) {
                    index.writeRow(g, row);
                }
                g.writeEndArray();
                g.writeArrayFieldStart("problems");
                for (SessionIndex.ProblemRow p : index.problemsAfter(page.problemsSeen)) {
                    SessionIndex.writeProblem(g, p);
                }
                g.writeEndArray();
            });
            page.version = index.version();
            page.problemsSeen = index.problemsSeen();
            return json;
        } finally {
            lock.unlock();
        }
    }

    /** The newest rows that match the filter, and how many older ones match too. */
    byte[] rows(SessionIndex.Filter filter) {
        return listing("rows", index -> index.rows(filter, MAX_LISTED), SessionIndex::writeRow);
    }

    byte[] tasks() {
        return listing("tasks", index -> index.tasks(MAX_LISTED), SessionIndex::writeTask);
    }

    byte[] contexts() {
        return listing("contexts", index -> index.contexts(MAX_LISTED), SessionIndex::writeContext);
    }

    /** {@code {"version":V,"NAME":[...],"more":N}}: a list as the page asks for it. */
    private byte[] listing(String name, Function<SessionIndex, SessionIndex.Listing> which, Item item) {
        lock.lock();
        try {
            SessionIndex.Listing l = which.apply(index);
            return json(g -> {
                g.writeNumberField("version", index.version());
                g.writeArrayFieldStart(name);
                for (int slot : l.slots()) {
                    item.write(index, g, slot);
                }
                g.writeEndArray();
                g.writeNumberField("more", l.more());
            });
        } finally {
            lock.unlock();
        }
    }

    private interface Item {
        void write(SessionIndex index, JsonGenerator g, int slot) throws IOException;
    }

    private interface Members {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] json(Members members) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator g = WireJson.mapper().getFactory().createGenerator(out)) {
            g.writeStartObject();
            members.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Every kept event, oldest first. */
    List<ExchangeEvent> events() {
        return entries().stream().map(Entry::event).toList();
    }

    /** Every kept line, oldest first, whole. */
    List<Entry> entries() {
        lock.lock();
        try {
            return entries.all();
        } finally {
            lock.unlock();
        }
    }

    /** Which exchanges a view reads: {@code n=1,2}, {@code task=ID} or {@code context=ID}, resolved by the index. */
    Set<Long> exchangesOf(Function<SessionIndex, Set<Long>> which) {
        lock.lock();
        try {
            return which.apply(index);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The kept lines of these exchanges, whole (headers and bodies included), oldest first: what a
     * task's, a context's or an exchange's view asks for when it is drawn.
     */
    List<Entry> exchanges(Set<Long> wanted) {
        lock.lock();
        try {
            return entries.of(wanted);
        } finally {
            lock.unlock();
        }
    }

    /** The pages following now. */
    List<BrowserFeed> feeds() {
        return List.copyOf(feeds);
    }
}
