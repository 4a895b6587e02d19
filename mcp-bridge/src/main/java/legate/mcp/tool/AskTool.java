package legate.mcp.tool;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import legate.a2a.client.A2aClientException;
import legate.a2a.client.UserMessage;
import legate.mcp.upstream.AgentDirectory;
import legate.mcp.upstream.AgentLink;
import legate.mcp.upstream.UpstreamStream;
import legate.mcp.upstream.UpstreamWatch;
import lf.a2a.v1.SendMessageRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code a2a_ask}: sends a message (SendStreamingMessage) and waits until the task is terminal or
 * interrupted, or the agent answers with a Message, turning every A2A event into a progress
 * notification on the way.
 *
 * <p>A stream cut before the turn ended is resumed where the agent declares resumable streams (the
 * client library subscribes again after the last event), so the call goes on and ends as the task
 * ends; each attempt is a progress notification. Only a stream that cannot be resumed ends the turn
 * as truncated.
 *
 * <p>While upstream is quiet a heartbeat tick goes out every {@code heartbeat}; after
 * {@code silence} without a single upstream event the turn is given up and the caller gets the
 * identity of the work. A caller that hangs up does not cancel the task: disconnecting is not
 * cancelling, so the stream is closed and the identity logged.
 */
final class AskTool implements A2aTool {
    static final String NAME = "a2a_ask";
    private static final Logger LOG = LoggerFactory.getLogger(AskTool.class);

    private final AgentDirectory agents;
    private final Clock clock;
    private final Duration discoveryTimeout;
    private final Duration heartbeat;
    private final Duration silence;
    private final ToolCalls log;

    AskTool(AgentDirectory agents, Clock clock, Duration discoveryTimeout, Duration heartbeat, Duration silence,
            ToolCalls log) {
        this.log = log;
        this.agents = agents;
        this.clock = clock;
        this.discoveryTimeout = discoveryTimeout;
        this.heartbeat = heartbeat;
        this.silence = silence;
    }

    @Override
    public Tool definition() {
        return Tool.builder(NAME, ToolSchema.object()
                        .string("text", "The message for the agent: the work to do, or the answer to its question.", true)
                        .string("taskId", "Continue this task: pass it to answer an agent that asked for input "
                                + "(outcome interrupted). Without it a new task starts.", false)
                        .string("contextId", "Start the new task in this conversation (as a2a_ask reported it). "
                                + "Not for answering a question: that needs taskId.", false)
                        .string(AGENT, agents.describeArgument(), false)
                        .build())
                .title("Ask an A2A agent")
                .description("Send a message to an A2A agent and wait until its task completes, fails, is canceled or "
                        + "rejected, or the agent asks for input; progress is reported while it works. The outcome is "
                        + "task, message (the agent just answered), interrupted (it waits for input: reply with a2a_ask "
                        + "and the same taskId) or truncated (the stream stopped early and could not be resumed: find the work "
                        + "with a2a_task). "
                        + "taskId continues that task; contextId without taskId starts new work in the same "
                        + "conversation, so answering a question with the contextId alone opens a second task and "
                        + "leaves the first one waiting.")
                .outputSchema(TaskReport.OUTPUT_SCHEMA)
                .annotations(ToolAnnotations.builder().readOnlyHint(false).destructiveHint(false)
                        .idempotentHint(false).openWorldHint(true).build())
                .build();
    }

    @Override
    public CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request) {
        ToolArguments args = ToolArguments.of(request);
        String text = args.required("text");
        String taskId = args.optional("taskId");
        String contextId = args.optional("contextId");
        AgentLink link = agents.resolve(args.optional(AGENT));
        var client = link.client(discoveryTimeout);
        AskTurn turn = new AskTurn(link.alias(), taskId, contextId);
        SendMessageRequest send = SendMessageRequest.newBuilder().setMessage(UserMessage.text(text, taskId, contextId)).build();
        ProgressChannel progress = ProgressChannel.of(exchange, request);
        log.activity("ask", fields("agent", link.alias(), "taskId", taskId, "contextId", contextId,
                "progressToken", progress.hasToken(), "chars", text.length()));
        try (UpstreamStream upstream = UpstreamStream.open(client, send, "legate-mcp-ask-" + link.alias())) {
            return follow(turn, upstream, progress).toResult();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolFailure("interrupted while waiting for agent " + link.alias() + " (" + turn.identity() + ")");
        }
    }

    private TaskReport follow(AskTurn turn, UpstreamStream upstream, ProgressChannel progress) throws InterruptedException {
        UpstreamWatch watch = new UpstreamWatch(clock, heartbeat, silence);
        while (true) {
            switch (upstream.next(watch.untilDue())) {
                case UpstreamStream.Event e -> {
                    watch.eventSeen();
                    boolean first = !turn.started();
                    String line = turn.accept(e.event());
                    if (first) {
                        LOG.info("a2a_ask: agent {}, {}", turn.agent(), turn.identity());
                    }
                    if (!progress.send(line)) {
                        return callerGone(turn);
                    }
                }
                case UpstreamStream.Resuming r -> {
                    // Not an upstream event: the silence gate keeps counting while the client resumes.
                    LOG.info("a2a_ask: the stream from agent {} was cut ({}: {}); resuming after event {}, attempt {} of {}",
                            turn.agent(), turn.identity(), r.attempt().why(), r.attempt().lastEventId(),
                            r.attempt().attempt(), r.attempt().attempts());
                    if (!progress.send(turn.resuming(r.attempt()))) {
                        return callerGone(turn);
                    }
                }
                case UpstreamStream.Ended e -> {
                    return turn.finish(e.end());
                }
                case UpstreamStream.Failed f -> {
                    if (f.error() instanceof A2aClientException a) {
                        return turn.fail(a);
                    }
                    LOG.warn("a2a_ask: reading the stream failed ({})", turn.identity(), f.error());
                    log.activity("upstream.broken", fields("agent", turn.agent(), "task", turn.identity(),
                            "error", f.error().toString()));
                    return turn.cutShort("reading the stream failed: " + f.error());
                }
                case UpstreamStream.Quiet q -> {
                    switch (watch.due()) {
                        case HEARTBEAT -> {
                            if (!progress.send(turn.heartbeat(watch.quiet()))) {
                                return callerGone(turn);
                            }
                        }
                        case GIVE_UP -> {
                            LOG.warn("a2a_ask: no event for {} ms; gave up waiting on agent {}, {}",
                                    silence.toMillis(), turn.agent(), turn.identity());
                            log.activity("ask.abandoned", fields("agent", turn.agent(), "task", turn.identity(),
                                    "why", "no upstream event for " + silence.toMillis() + " ms"));
                            return turn.silent(silence);
                        }
                        case NOTHING -> {
                            // woke early; wait for the rest
                        }
                    }
                }
            }
        }
    }

    /** Key-value pairs in order, nulls left out: one activity record's fields. */
    private static Map<String, Object> fields(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                m.put((String) pairs[i], pairs[i + 1]);
            }
        }
        return m;
    }

    /**
     * The caller hung up. Disconnecting is not cancelling: the stream closes, the task goes on, and
     * the log says where it is. The report goes nowhere; it only ends the call.
     */
    private TaskReport callerGone(AskTurn turn) {
        LOG.info("a2a_ask: the caller hung up; the work goes on at agent {}, {}", turn.agent(), turn.identity());
        log.activity("ask.abandoned", fields("agent", turn.agent(), "task", turn.identity(), "why", "the caller hung up"));
        return turn.cutShort("the caller hung up");
    }
}
