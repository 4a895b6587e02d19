package legate.a2a.server.task;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;

/**
 * An executor whose turn is a lambda given by the test, recording every context it ran with and
 * every parked task the server told it was canceled. A scripted turn learns of a cancel the way a
 * real agent does, through {@link RequestContext#cancel()}.
 */
final class ScriptedExecutor implements AgentExecutor {
    interface Turn {
        void run(RequestContext context, EventSink events, ScriptedExecutor self) throws Exception;
    }

    final List<RequestContext> contexts = new CopyOnWriteArrayList<>();
    final List<String> parkedCancels = new CopyOnWriteArrayList<>();
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
        parkedCancels.add(taskId);
    }
}
