package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.MessageOrBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import legate.a2a.model.ProtoJson;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import lf.a2a.v1.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One conversation, the same through every binding: PROTOCOL (A2A §5) the bindings carry one data
 * model, so a client must not be able to tell from the task it gets which binding it spoke. The
 * conversation is a stream that stops at INPUT_REQUIRED, the reply streamed into the same task to
 * COMPLETED, a GetTask of it, then a second task asked for input and canceled. Each binding's
 * transcript (every event and result as ProtoJSON, its ids and times replaced by placeholders in
 * order of appearance) must equal JSON-RPC's. A binding joins by being added to {@link #BINDINGS}.
 */
class SameTaskOnEveryBindingTest {
    /** Every binding the client and server both speak; JSON-RPC first, the reference. */
    static final List<Binding> BINDINGS = List.of(Binding.JSONRPC_1_0, Binding.HTTP_JSON_1_0, Binding.GRPC_1_0);
    private static final Set<String> IDS = Set.of("id", "taskId", "contextId", "messageId");

    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                p -> RevisorCard.build(null, "http://127.0.0.1:" + p + "/"), new RevisorExecutor(Duration.ZERO));
        port = cleanup.start("the Revisor server", server, AgentServer::start, AgentServer::openStreams);
    }

    @Test
    void everyBindingShowsTheSameTasksAsJsonRpc() {
        Map<Binding, List<String>> transcripts = new LinkedHashMap<>();
        for (Binding b : BINDINGS) {
            transcripts.put(b, conversation(b));
        }
        List<String> reference = transcripts.get(Binding.JSONRPC_1_0);
        // The conversation did happen as described, so equal transcripts are not two empty ones.
        assertThat(String.join("\n", reference)).contains("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_COMPLETED",
                "TASK_STATE_CANCELED", "text-stats");
        transcripts.forEach((binding, transcript) ->
                assertThat(transcript).as("the conversation over %s", binding).containsExactlyElementsOf(reference));
    }

    private static List<String> conversation(Binding binding) {
        List<MessageOrBuilder> wire = new ArrayList<>();
        try (A2aClient client = A2aClient.connect(URI.create("http://127.0.0.1:" + port),
                ClientConfig.defaults().withBindings(List.of(binding)))) {
            assertThat(client.endpoint().getProtocolBinding()).isEqualTo(binding.protocolBinding());
            client.stream(UserMessage.text(""), e -> wire.add(e));
            Task asked = ((lf.a2a.v1.StreamResponse) wire.get(0)).getTask();
            client.stream(UserMessage.text(RevisorContract.TEXT, asked.getId(), asked.getContextId()), e -> wire.add(e));
            wire.add(client.getTask(asked.getId()));

            List<lf.a2a.v1.StreamResponse> second = new ArrayList<>();
            client.stream(UserMessage.text(""), second::add);
            wire.addAll(second);
            wire.add(client.cancelTask(second.get(0).getTask().getId()));
            wire.add(client.getTask(second.get(0).getTask().getId()));
        }
        Map<String, String> placeholders = new HashMap<>();
        return wire.stream().map(m -> normalized(ProtoJson.print(m), placeholders)).toList();
    }

    /** The JSON with every id replaced by its placeholder (the same id, the same one) and every timestamp by one word. */
    private static String normalized(String json, Map<String, String> placeholders) {
        try {
            JsonNode tree = WireJson.mapper().readTree(json);
            replace(tree, placeholders);
            return WireJson.write(tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void replace(JsonNode node, Map<String, String> placeholders) {
        if (node instanceof ObjectNode object) {
            object.properties().forEach(field -> {
                String name = field.getKey();
                if (IDS.contains(name) && field.getValue().isTextual()) {
                    object.put(name, placeholders.computeIfAbsent(field.getValue().asText(), v -> "<id" + placeholders.size() + ">"));
                } else if (name.equals("timestamp")) {
                    object.put(name, "<time>");
                } else {
                    replace(field.getValue(), placeholders);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> replace(n, placeholders));
        }
    }
}
