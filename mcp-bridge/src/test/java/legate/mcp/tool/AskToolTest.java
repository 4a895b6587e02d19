package legate.mcp.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.mcp.FakeAgent;
import legate.mcp.McpCaller;
import legate.mcp.McpConfig;
import legate.mcp.McpEndpoint;
import legate.mcp.guard.BearerToken;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * a2a_ask over an upstream stream that is cut mid-turn, seen by an MCP caller on the wire: an agent
 * that declares resumable streams is followed to the end of its task, and only one that does not,
 * or that refuses the resumption, leaves the turn truncated (README, the outcome table of
 * {@code legate mcp}).
 */
class AskToolTest {
    private static final BearerToken TOKEN = BearerToken.mint(new SecureRandom());
    private static final Pattern RESUMING = Pattern.compile("cut; resuming after event (\\d+) \\(attempt 1 of 5; the connection to \\S+ broke: ");

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    /** The agent's result and progress lines for one a2a_ask, through an endpoint publishing {@code agent}. */
    private record Ask(JsonNode structured, boolean isError, List<String> progress) {
    }

    private Ask ask(FakeAgent agent) throws Exception {
        agent.start();
        McpEndpoint endpoint = cleanup.register(McpEndpoint.create(McpConfig.loopback(0, TOKEN,
                Map.of("agent", URI.create(agent.url())))));
        endpoint.start();
        try (McpCaller caller = new McpCaller(endpoint, TOKEN)) {
            List<JsonNode> messages = caller.call(caller.initialize(), AskTool.NAME, "{\"text\":\"go\"}");
            JsonNode result = messages.get(messages.size() - 1).path("result");
            List<String> progress = messages.stream().filter(m -> m.path("method").asText().equals("notifications/progress"))
                    .map(m -> m.path("params").path("message").asText()).toList();
            List<Double> numbers = messages.stream().filter(m -> m.path("method").asText().equals("notifications/progress"))
                    .map(m -> m.path("params").path("progress").asDouble()).toList();
            assertThat(numbers).as("progress strictly increases").isSortedAccordingTo(Double::compare).doesNotHaveDuplicates();
            return new Ask(result.path("structuredContent"), result.path("isError").asBoolean(), progress);
        }
    }

    // The resumable streams extension: a cut upstream stream is resumed after the last event, the
    // progress notifications go on, and the turn ends as the task ends: outcome task, COMPLETED.
    @Test
    void aCutStreamFromAnAgentThatResumesEndsAsTheTaskEndsNotTruncated() throws Exception {
        FakeAgent agent = cleanup.register(new FakeAgent("resumable", FakeAgent.Script.RESUMABLE));

        Ask ask = ask(agent);

        assertThat(ask.structured().path("outcome").asText()).as("%s", ask).isEqualTo("task");
        assertThat(ask.structured().path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(ask.isError()).isFalse();
        assertThat(ask.structured().path("answer").asText()).isEqualTo("All done.");
        String resumedAfter = ask.progress().stream().map(RESUMING::matcher).filter(Matcher::find)
                .map(m -> m.group(1)).findFirst().orElseThrow(() -> new AssertionError("no resume line in " + ask.progress()));
        assertThat(agent.lastEventIds()).containsExactly(resumedAfter);
        assertThat(ask.progress()).filteredOn(l -> l.contains("artifact answer")).hasSize(1);
        assertThat(ask.progress().get(ask.progress().size() - 1)).startsWith("completed");
    }

    // A resumption the agent refuses (the task is gone) leaves the turn truncated, as a cut did
    // before: an error carrying the task to recover, saying what the attempt met.
    @Test
    void aRefusedResumptionLeavesTheTurnTruncated() throws Exception {
        FakeAgent agent = cleanup.register(new FakeAgent("refused", FakeAgent.Script.RESUME_REFUSED));

        Ask ask = ask(agent);

        assertThat(ask.structured().path("outcome").asText()).isEqualTo("truncated");
        assertThat(ask.isError()).isTrue();
        assertThat(ask.structured().path("taskId").asText()).isEqualTo("refused-task");
        assertThat(ask.structured().path("note").asText()).contains("was refused").contains("a2a_task");
        assertThat(agent.lastEventIds()).hasSize(1);
    }

    // An agent without the extension promises nothing about Last-Event-ID: no resubscription, and
    // the stream closed early is truncated as before.
    @Test
    void anAgentWithoutTheExtensionIsNotResubscribedAndTheTurnIsTruncated() throws Exception {
        FakeAgent agent = cleanup.register(new FakeAgent("cut", FakeAgent.Script.CUT));

        Ask ask = ask(agent);

        assertThat(ask.structured().path("outcome").asText()).isEqualTo("truncated");
        assertThat(ask.progress()).noneMatch(l -> l.contains("resuming"));
        assertThat(agent.lastEventIds()).isEmpty();
    }
}
