package legate.a2a.server.task;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;

/**
 * An executor whose turn is a lambda given by the test, recording every context it ran with and
 * every cancel it was asked for. {@link #cancelled} opens when a cancel arrives, so a scripted
 * turn can wait on it the way a real agent waits on its work.
 */
final class ScriptedExecutor implements AgentExecutor {
    interface Turn {
        void run(RequestContext context, EventSink events, ScriptedExecutor self) throws Exception;
    }

    final List<RequestContext> contexts = new CopyOnWriteArrayList<>();
    final List<String> cancels = new CopyOnWriteArrayList<>();
    final CountDownLatch cancelled = new CountDownLatch(1);
    private final Turn turn;

    ScriptedExecutor(Turn turn) {
        this.turn = turn;
    }

    @Override
    public void execute(RequestContext context, EventSink events) throws Exception {
        contexts.add(context);
        turn.run(context, events, this);
    }

    @Override
    public void cancel(String taskId) {
        cancels.add(taskId);
        cancelled.countDown();
    }
}
