package legate.mcp;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.model.ProtoJson;
import legate.revisor.RevisorCard;
import legate.wire.jsonrpc.JsonRpcCodec;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A scripted A2A agent on 127.0.0.1: it serves a card and answers every SendStreamingMessage with
 * the Task {@code <name>-task} in context {@code <name>-context}, then follows its {@link Script}.
 * It also counts card fetches and can hold or refuse them, for the handshake rules.
 */
public final class FakeAgent implements AutoCloseable {
    /** What happens after the Task frame. */
    public enum Script {
        /** Nothing: the stream stays open and silent, as a wedged agent's would. */
        QUIET,
        /** A WORKING update, then the stream closes cleanly before the turn is over. */
        CUT
    }

    private final String name;
    private final Script script;
    private final Server jetty = new Server();
    private final ServerConnector connector = new ServerConnector(jetty, 1, 1);
    private final AtomicInteger cardFetches = new AtomicInteger();
    private final AtomicInteger refusals = new AtomicInteger();
    private final List<Callback> held = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch cardGate = new CountDownLatch(0);

    public FakeAgent(String name, Script script) {
        this.name = name;
        this.script = script;
        connector.setHost("127.0.0.1");
        jetty.addConnector(connector);
        jetty.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                if (Request.getPathInContext(request).equals("/.well-known/agent-card.json")) {
                    card(response, callback);
                } else if (HttpMethod.POST.is(request.getMethod())) {
                    stream(request, response, callback);
                } else {
                    Response.writeError(request, response, callback, 404);
                }
                return true;
            }
        });
    }

    public int start() throws Exception {
        jetty.start();
        return connector.getLocalPort();
    }

    public String url() {
        return "http://127.0.0.1:" + connector.getLocalPort() + "/";
    }

    public int cardFetches() {
        return cardFetches.get();
    }

    /** Card requests wait until the returned latch is counted down. */
    public CountDownLatch holdCards() {
        cardGate = new CountDownLatch(1);
        return cardGate;
    }

    /** The next {@code n} card requests are answered 404. */
    public void refuseCards(int n) {
        refusals.set(n);
    }

    private void card(Response response, Callback callback) throws InterruptedException {
        cardFetches.incrementAndGet();
        if (!cardGate.await(30, TimeUnit.SECONDS)) {
            callback.failed(new IllegalStateException("the card was held too long"));
            return;
        }
        if (refusals.getAndDecrement() > 0) {
            response.setStatus(404);
            callback.succeeded();
            return;
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, ProtoJson.print(RevisorCard.build(name, url())), callback);
    }

    private void stream(Request request, Response response, Callback callback) throws Exception {
        String id = JsonRpcCodec.parseTree(Content.Source.asString(request).getBytes(StandardCharsets.UTF_8)).get("id").toString();
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
        OutputStream out = Content.Sink.asOutputStream(response);
        Task task = Task.newBuilder().setId(name + "-task").setContextId(name + "-context")
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_SUBMITTED)).build();
        frame(out, id, StreamResponse.newBuilder().setTask(task).build());
        if (script == Script.QUIET) {
            held.add(callback);
            return;
        }
        frame(out, id, StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(task.getId()).setContextId(task.getContextId())
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_WORKING).setMessage(Message.newBuilder()
                        .setMessageId("m1").setRole(Role.ROLE_AGENT).addParts(Part.newBuilder().setText("Working…"))))).build());
        out.close();
        callback.succeeded();
    }

    private static void frame(OutputStream out, String id, StreamResponse event) throws java.io.IOException {
        String data = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + ProtoJson.print(event) + "}";
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        cardGate.countDown();
        held.forEach(c -> c.failed(new IllegalStateException("the fake agent stopped")));
        try {
            jetty.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the fake agent did not stop", e);
        }
    }
}
