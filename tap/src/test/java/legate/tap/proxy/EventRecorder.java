package legate.tap.proxy;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeListener;

/** A listener that queues every event the tap reports, so a test can wait for one with a bounded timeout. */
final class EventRecorder implements ExchangeListener {
    private final LinkedBlockingQueue<ExchangeEvent> queue = new LinkedBlockingQueue<>();
    private final List<ExchangeEvent> seen = new ArrayList<>();

    @Override
    public void on(ExchangeEvent event) {
        queue.add(event);
    }

    /** Waits for the next event of this type, keeping the ones passed over in {@link #seen()}. */
    <T extends ExchangeEvent> T await(Class<T> type, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ExchangeEvent e = queue.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                return fail("no " + type.getSimpleName() + " within " + timeout + "; saw " + seen.size()
                        + " events, the last ones: " + seen.subList(Math.max(0, seen.size() - 5), seen.size()));
            }
            seen.add(e);
            if (type.isInstance(e)) {
                return type.cast(e);
            }
        }
    }

    List<ExchangeEvent> seen() {
        return seen;
    }
}
