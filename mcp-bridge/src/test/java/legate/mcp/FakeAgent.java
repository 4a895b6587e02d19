package legate.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.model.A2aMethods;
import legate.a2a.model.LegateExtensions;
import legate.a2a.model.ProtoJson;
import legate.revisor.RevisorCard;
import legate.wire.jsonrpc.JsonRpcCodec;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentExtension;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
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
 *
 * <p>Only the resumable scripts declare Legate's resumable streams extension in the card; the others
 * declare none, whatever the card they start from, so a cut stays a cut there. Their frames carry
 * ids: the task's events are numbered from 1, and SubscribeToTask with {@code Last-Event-ID: k}
 * answers the events after k, as a Legate server replays them.
 */
public final class FakeAgent implements AutoCloseable {
    /** What happens after the Task frame. */
    public enum Script {
        /** Nothing: the stream stays open and silent, as a wedged agent's would. */
        QUIET,
        /** A WORKING update, then the stream closes cleanly before the turn is over. */
        CUT,
        /**
         * The card declares resumable streams; a WORKING update (event 2), then the connection
         * breaks; SubscribeToTask replays what follows: an artifact (3) and COMPLETED (4).
         */
        RESUMABLE,
        /** As {@link #RESUMABLE}, but SubscribeToTask is refused with -32001, as after a restart that lost the task. */
        RESUME_REFUSED
    }

    private final String name;
    private final Script script;
    private final Server jetty = new Server();
    private final ServerConnector connector = new ServerConnector(jetty, 1, 1);
    private final AtomicInteger cardFetches = new AtomicInteger();
    private final AtomicInteger refusals = new AtomicInteger();
    private final List<Callback> held = new CopyOnWriteArrayList<>();
    private final List<String> lastEventIds = new CopyOnWriteArrayList<>();
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

    /** The Last-Event-ID header of each SubscribeToTask received, in order. */
    public List<String> lastEventIds() {
        return List.copyOf(lastEventIds);
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
        AgentCard card = RevisorCard.build(name, url());
        AgentCapabilities.Builder capabilities = card.getCapabilities().toBuilder().clearExtensions();
        if (script == Script.RESUMABLE || script == Script.RESUME_REFUSED) {
            capabilities.addExtensions(AgentExtension.newBuilder().setUri(LegateExtensions.RESUMABLE_STREAMS));
        }
        Content.Sink.write(response, true, ProtoJson.print(card.toBuilder().setCapabilities(capabilities).build()), callback);
    }

    private void stream(Request request, Response response, Callback callback) throws Exception {
        JsonNode call = JsonRpcCodec.parseTree(Content.Source.asString(request).getBytes(StandardCharsets.UTF_8));
        String id = call.get("id").toString();
        List<StreamResponse> events = events();
        if (call.path("method").asText().equals(A2aMethods.SUBSCRIBE_TO_TASK)) {
            String after = request.getHeaders().get("Last-Event-ID");
            lastEventIds.add(String.valueOf(after));
            if (script == Script.RESUME_REFUSED || after == null) {
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                Content.Sink.write(response, true, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32001,"
                        + "\"message\":\"Task not found: " + name + "-task\"}}", callback);
                return;
            }
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
            OutputStream out = Content.Sink.asOutputStream(response);
            for (int i = Integer.parseInt(after); i < events.size(); i++) {
                frame(out, id, i + 1, events.get(i));
            }
            out.close();
            callback.succeeded();
            return;
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
        OutputStream out = Content.Sink.asOutputStream(response);
        frame(out, id, 1, events.get(0));
        if (script == Script.QUIET) {
            held.add(callback);
            return;
        }
        frame(out, id, 2, events.get(1));
        if (script == Script.CUT) {
            out.close();
            callback.succeeded();
            return;
        }
        // A failed callback on a committed response makes Jetty abort the connection: the stream
        // breaks without its last chunk, as a proxy or a dropped network would break it.
        callback.failed(new IOException("the fake agent cut the stream"));
    }

    /** The task's events, numbered from 1 by their place: the Task, WORKING, an artifact, COMPLETED. */
    private List<StreamResponse> events() {
        Task task = Task.newBuilder().setId(name + "-task").setContextId(name + "-context")
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_SUBMITTED)).build();
        return List.of(StreamResponse.newBuilder().setTask(task).build(),
                status(task, TaskState.TASK_STATE_WORKING, "Working…"),
                StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                        .setTaskId(task.getId()).setContextId(task.getContextId()).setArtifact(Artifact.newBuilder()
                                .setArtifactId("answer").addParts(Part.newBuilder().setText("All done.")))).build(),
                status(task, TaskState.TASK_STATE_COMPLETED, null));
    }

    private static StreamResponse status(Task task, TaskState state, String said) {
        TaskStatus.Builder status = TaskStatus.newBuilder().setState(state);
        if (said != null) {
            status.setMessage(Message.newBuilder().setMessageId("m-" + state.getNumber()).setRole(Role.ROLE_AGENT)
                    .addParts(Part.newBuilder().setText(said)));
        }
        return StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(task.getId()).setContextId(task.getContextId()).setStatus(status)).build();
    }

    private static void frame(OutputStream out, String id, int eventId, StreamResponse event) throws IOException {
        String data = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + ProtoJson.print(event) + "}";
        out.write(("id: " + eventId + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
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
