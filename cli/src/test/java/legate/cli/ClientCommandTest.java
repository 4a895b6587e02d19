package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.a2a.model.LegateExtensions;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.ScriptedPeer;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code legate client} run in process through the real launcher's picocli setup, against Legate's
 * server on a loopback port, with standard output and error captured: what a person or a script
 * sees, and the exit codes scripts branch on.
 */
class ClientCommandTest {
    // Stops both agents after the class; after each test, every stream the command opened is over.
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static AgentServer revisor;
    private static AgentServer endsAsAsked;
    private static String revisorUrl;
    private static String endsAsAskedUrl;

    /** What one run of the command printed and returned. */
    record Run(int exit, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    @BeforeAll
    static void start() throws Exception {
        revisor = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        revisorUrl = "http://127.0.0.1:" + cleanup.start("Revisor", revisor, AgentServer::start, AgentServer::openStreams);
        endsAsAsked = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build("Ends as asked", "http://127.0.0.1:" + port + "/"), new EndsAsAskedExecutor());
        endsAsAskedUrl = "http://127.0.0.1:" + cleanup.start("the agent that ends as asked", endsAsAsked,
                AgentServer::start, AgentServer::openStreams);
    }

    /** Runs {@code legate ARGS} with AGENT_URL set as the environment would set it. */
    static Run legate(String agentUrl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Legate.commandLine(new Settings(Map.of("AGENT_URL", agentUrl), Map.of()));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    // The demonstration: turn 1 reaches INPUT_REQUIRED, turn 2 continues the same task
    // through WORKING, the artifact and COMPLETED, and GetTask finds the task stored after both calls.
    @Test
    void theDemonstrationShowsOneTaskThroughTwoTurnsAndTheStoredTask() {
        Run run = legate(revisorUrl, "client");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        List<String> lines = run.lines();
        int asked = indexOf(lines, "^  status +input required +Send me some text");
        int working = indexOf(lines, "^  status +working ");
        int artifact = indexOf(lines, "^  artifact +text-stats +Words: 13, characters: 63, sentences: 2\\.$");
        int completed = indexOf(lines, "^  status +completed$");
        int stored = indexOf(lines, "^  completed, 1 artifact, history of \\d+ messages, context ");
        assertThat(List.of(asked, working, artifact, completed, stored)).allMatch(i -> i >= 0).isSorted();
        assertThat(lines).anyMatch(l -> l.matches("^ +words +13$"));

        String taskId = firstGroup(run.out(), "task +submitted +id (\\S+)");
        assertThat(run.out()).contains("Turn 2: text into the same task " + taskId)
                .contains("GetTask " + taskId);
    }

    // --binding REST (README "Protocol bindings"): the same demonstration over HTTP+JSON, the card
    // offering it second; the requests the server counted are REST's, not JSON-RPC's.
    @Test
    void theDemonstrationRunsOverRestWhenTheBindingIsForced() {
        Run run = legate(revisorUrl, "client", "--binding", "REST");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(indexOf(run.lines(), "^  status +completed$")).isNotNegative();
        assertThat(run.out()).contains("GetTask ");
        // No other test of this class speaks REST: these counts are this run's.
        assertThat(revisor.metrics().scrape()).contains("binding=\"rest\",method=\"SendStreamingMessage\",outcome=\"ok\"")
                .contains("binding=\"rest\",method=\"GetTask\",outcome=\"ok\"");
    }

    // --json is for scripts: standard output holds one ProtoJSON value per line and nothing else.
    @Test
    void theDemonstrationWithJsonPrintsOnlyJsonLines() throws IOException {
        Run run = legate(revisorUrl, "client", "--json");

        assertThat(run.exit()).isZero();
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> values = new java.util.ArrayList<>();
        for (String line : run.lines()) {
            values.add(json.readTree(line));
        }
        assertThat(values).extracting(v -> v.path("statusUpdate").path("status").path("state").asText())
                .contains("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED");
        JsonNode last = values.get(values.size() - 1);
        assertThat(last.path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(last.path("artifacts")).hasSize(1);
    }

    // Exit codes, as the help lists them: 0 when the task completed or asks for input; non-zero, with a one-line
    // reason, when it failed, was canceled or was rejected.
    @ParameterizedTest
    @CsvSource({"TASK_STATE_COMPLETED, 0", "TASK_STATE_INPUT_REQUIRED, 0",
            "TASK_STATE_FAILED, 1", "TASK_STATE_CANCELED, 1", "TASK_STATE_REJECTED, 1"})
    void askExitsByTheStateTheTaskEndedIn(TaskState state, int exit) {
        Run run = legate(endsAsAskedUrl, "client", "ask", state.name());

        assertThat(run.exit()).as(run.err()).isEqualTo(exit);
        if (exit == 0) {
            assertThat(run.err()).isEmpty();
        } else {
            assertThat(run.err().lines().toList()).singleElement().asString()
                    .startsWith("legate client: task ").contains("ended " + legate.a2a.model.TaskStates.label(state))
                    .endsWith(": the test asked for " + state.name());
        }
    }

    // An unreachable agent is one line and exit 4, never a stack trace.
    @Test
    void anUnreachableAgentIsOneLineAndExitFour() throws IOException {
        String closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = "http://127.0.0.1:" + s.getLocalPort();
        }

        Run run = legate(closed, "client", "ask", "hello");

        assertThat(run.exit()).isEqualTo(4);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines().toList()).singleElement().asString()
                .startsWith("legate client: cannot connect to " + closed + "/.well-known/agent-card.json");
    }

    // The agent's error is shown with its reason and code, exit 3.
    @Test
    void anErrorFromTheAgentShowsItsReasonAndCodeAndExitsThree() {
        Run run = legate(revisorUrl, "client", "get", "no-such-task");

        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err().lines().toList()).singleElement().asString()
                .isEqualTo("legate client: the agent answered TASK_NOT_FOUND (-32001): Task not found: no-such-task");
    }

    // ask --task continues a task that asked for input; get, list and card show what the agent holds.
    @Test
    void askContinuesATaskAndGetListAndCardShowIt() {
        Run first = legate(revisorUrl, "client", "ask", "--context", "ctx-cli", "");
        assertThat(first.exit()).isZero();
        String taskId = firstGroup(first.out(), "task +submitted +id (\\S+)");
        assertThat(first.out()).contains("legate client ask --task " + taskId + " TEXT");

        Run second = legate(revisorUrl, "client", "ask", "--task", taskId, "two words");
        assertThat(second.exit()).isZero();
        assertThat(second.out()).containsPattern("status +completed");

        Run get = legate(revisorUrl, "client", "get", taskId);
        assertThat(get.out()).startsWith("task " + taskId + "  completed").contains("  artifacts 1");
        Run list = legate(revisorUrl, "client", "list", "--context", "ctx-cli");
        assertThat(list.out()).containsPattern(Pattern.quote(taskId) + " +completed +context ctx-cli").contains("1 of 1 task(s)");
        Run card = legate(revisorUrl, "client", "card");
        assertThat(card.out()).startsWith("Revisor ").contains("* JSONRPC 1.0 at " + revisorUrl + "/  (dialed)");
    }

    // The resumable streams extension (README "legate client"): a stream cut mid-turn is picked up
    // after the last event printed, with one line saying so, every event printed once and in order,
    // and the exit code of the task as it ended.
    @Test
    void askResumesACutStreamWithOneLineAndPrintsEveryEventOnce() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer(ClientCommandTest::cutThenReplay)) {
            Run run = legate(peer.url().toString(), "client", "ask", "hello");

            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.err()).isEmpty();
            String header = resubscription(peer).header("Last-Event-ID");
            List<String> lines = run.lines();
            assertThat(lines).filteredOn(l -> l.contains("stream cut"))
                    .containsExactly("  (stream cut; resuming after event " + header + ")");
            int task = indexOf(lines, "^  task +submitted +id T ");
            int working = indexOf(lines, "^  status +working +step one$");
            int artifact = indexOf(lines, "^  artifact +a1 +done$");
            int completed = indexOf(lines, "^  status +completed$");
            int resumed = lines.indexOf("  (stream cut; resuming after event " + header + ")");
            assertThat(List.of(task, working, artifact, completed)).allMatch(i -> i >= 0).isSorted();
            assertThat(resumed).isBetween(task, artifact);
            assertThat(lines).filteredOn(l -> l.startsWith("  status") || l.startsWith("  task") || l.startsWith("  artifact"))
                    .hasSize(4);
        }
    }

    // --json keeps standard output to JSON lines: the resume line goes to standard error.
    @Test
    void askWithJsonSaysItResumedOnStandardError() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer(ClientCommandTest::cutThenReplay)) {
            Run run = legate(peer.url().toString(), "client", "--json", "ask", "hello");

            assertThat(run.exit()).as(run.err()).isZero();
            String header = resubscription(peer).header("Last-Event-ID");
            assertThat(run.err().lines().toList()).containsExactly("(stream cut; resuming after event " + header + ")");
            assertThat(run.lines()).hasSize(4).allMatch(l -> l.startsWith("{"));
        }
    }

    // A resumption the agent refuses gives the outcome a cut stream had before: exit 1 (its stream
    // ended early), one line naming the task and how to follow it.
    @Test
    void aRefusedResumptionExitsOneNamingTheTask() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> {
            if (request.body().contains("\"SubscribeToTask\"")) {
                ScriptedPeer.respond(out, 200, "application/json",
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found: T\"}}");
                return;
            }
            cutThenReplay(request, out, self);
        })) {
            Run run = legate(peer.url().toString(), "client", "ask", "hello");

            assertThat(run.exit()).isEqualTo(1);
            assertThat(run.err().lines().toList()).singleElement().asString()
                    .startsWith("legate client: the stream of task T broke before it finished")
                    .contains("was refused: the agent answered TASK_NOT_FOUND (-32001)")
                    .endsWith("follow it with: legate client subscribe T");
        }
    }

    /** The events of the scripted task, each with its id: the SSE id is its index plus one. */
    private static final List<String> EVENTS = List.of(
            "{\"task\":{\"id\":\"T\",\"contextId\":\"C\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}",
            "{\"statusUpdate\":{\"taskId\":\"T\",\"contextId\":\"C\",\"status\":{\"state\":\"TASK_STATE_WORKING\","
                    + "\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_AGENT\",\"parts\":[{\"text\":\"step one\"}]}}}}",
            "{\"artifactUpdate\":{\"taskId\":\"T\",\"contextId\":\"C\",\"artifact\":{\"artifactId\":\"a1\","
                    + "\"parts\":[{\"text\":\"done\"}]}}}",
            "{\"statusUpdate\":{\"taskId\":\"T\",\"contextId\":\"C\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}");

    /**
     * An agent whose card declares resumable streams: SendStreamingMessage gets events 1 and 2, then
     * the connection breaks; SubscribeToTask gets every event after its Last-Event-ID, as a Legate
     * server replays them. (The JDK client may lose bytes it had not yet read when a connection
     * breaks, so the id it resumes after is read from the request, not assumed.)
     */
    private static void cutThenReplay(ScriptedPeer.Exchange request, OutputStream out, ScriptedPeer self) throws IOException {
        if (ScriptedPeer.isCardRequest(request)) {
            ScriptedPeer.respond(out, 200, "application/json", ScriptedPeer.cardJson(self.url(), LegateExtensions.RESUMABLE_STREAMS));
            return;
        }
        ScriptedPeer.sseHead(out);
        boolean resumed = request.body().contains("\"SubscribeToTask\"");
        int from = resumed ? Integer.parseInt(request.header("Last-Event-ID")) : 0;
        int to = resumed ? EVENTS.size() : 2;
        for (int i = from; i < to; i++) {
            ScriptedPeer.chunk(out, "id: " + (i + 1) + "\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + EVENTS.get(i) + "}\n\n");
        }
        if (resumed) {
            ScriptedPeer.lastChunk(out);
        }
    }

    /** The SubscribeToTask the client resumed with, after the card fetch and the SendStreamingMessage. */
    private static ScriptedPeer.Exchange resubscription(ScriptedPeer peer) {
        List<ScriptedPeer.Exchange> requests = peer.takeReceived();
        assertThat(requests).hasSize(3);
        assertThat(requests.get(2).body()).contains("\"SubscribeToTask\"").contains("\"id\":\"T\"");
        return requests.get(2);
    }

    private static int indexOf(List<String> lines, String regex) {
        Pattern p = Pattern.compile(regex);
        for (int i = 0; i < lines.size(); i++) {
            if (p.matcher(lines.get(i)).find()) {
                return i;
            }
        }
        return -1;
    }

    private static String firstGroup(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("%s in%n%s", regex, text).isTrue();
        return m.group(1);
    }

    /** An agent whose turn ends in the state its message's text names: a seam for every outcome. */
    static final class EndsAsAskedExecutor implements AgentExecutor {
        @Override
        public void execute(RequestContext context, EventSink events) {
            events.task(context.initialTask());
            String asked = context.message().getParts(0).getText().strip();
            events.status(TaskState.TASK_STATE_WORKING, null);
            events.status(TaskState.valueOf(asked), events.agentText("the test asked for " + asked));
        }
    }
}
