package legate.a2a.server.v03;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.time.Duration;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;

/**
 * A v1.0 agent the v0.3 tests talk to through the v0.3 path, whose text decides the turn: an
 * empty text asks a question (INPUT_REQUIRED) and the reply into the task completes it;
 * "message" answers with a Message and no task; "slow" works until it is canceled (20 s at most);
 * anything else works, publishes the artifact {@code count} (a text part, and a data part with
 * the word count) and completes.
 */
final class V03TestAgent implements AgentExecutor {
    static final String QUESTION = "What should I count?";

    @Override
    public void execute(RequestContext ctx, EventSink events) throws Exception {
        String text = ctx.text().strip();
        if (text.equals("message")) {
            events.message(events.agentText("no task for that"));
            return;
        }
        events.task(ctx.initialTask());
        if (text.isEmpty()) {
            events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText(QUESTION));
            return;
        }
        events.status(TaskState.TASK_STATE_WORKING, events.agentText("counting"));
        if (text.equals("slow") && ctx.cancel().await(Duration.ofSeconds(20))) {
            events.status(TaskState.TASK_STATE_CANCELED, null);
            return;
        }
        int words = text.split("\\s+").length;
        events.artifact(Artifact.newBuilder().setArtifactId("count").setName("count")
                .addParts(Part.newBuilder().setText("Words: " + words))
                .addParts(Part.newBuilder().setData(Value.newBuilder().setStructValue(Struct.newBuilder()
                        .putFields("words", Value.newBuilder().setNumberValue(words).build()))))
                .build(), false, true);
        events.status(TaskState.TASK_STATE_COMPLETED, null);
    }

    /** A started server in front of this agent, every served binding in its card; its port. */
    static int serve(Cleanup cleanup, ServerConfig config) throws Exception {
        return cleanup.start("the agent", server(config), AgentServer::start, AgentServer::openStreams);
    }

    /** A server in front of this agent, not started yet. */
    static AgentServer server(ServerConfig config) {
        return AgentServer.create(config, V03TestAgent::card, new V03TestAgent());
    }

    static AgentCard card(int port) {
        return AgentCard.newBuilder().setName("counter").setDescription("counts words").setVersion("1")
                .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                        .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true).setPushNotifications(false))
                .addDefaultInputModes("text/plain").addDefaultOutputModes("text/plain")
                .build();
    }
}
