package legate.mcp.tool;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import legate.mcp.upstream.AgentDirectory;
import legate.mcp.upstream.AgentUnavailable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four tools a calling agent sees in {@code tools/list}, in the order listed there:
 * {@code a2a_ask}, {@code a2a_task}, {@code a2a_cancel} and {@code a2a_card}, each as the MCP SDK
 * serves it.
 *
 * <p>PROTOCOL (MCP 2025-06-18, tools, error handling): a failed call is a result with
 * {@code isError}, never a JSON-RPC error, so one bad call costs the caller one error result and
 * nobody else anything.
 */
public final class A2aTools {
    private static final Logger LOG = LoggerFactory.getLogger(A2aTools.class);

    private A2aTools() {
    }

    /**
     * @param discoveryTimeout how long a call waits for an agent's card
     * @param requestTimeout bound on a2a_card's answer
     * @param heartbeat a2a_ask's progress tick after this much upstream quiet
     * @param silence a2a_ask gives a turn up after this long without an upstream event
     * @param observed counts and traces each call
     */
    public static List<SyncToolSpecification> specifications(AgentDirectory agents, Clock clock,
                                                             Duration discoveryTimeout, Duration requestTimeout,
                                                             Duration heartbeat, Duration silence,
                                                             ToolCalls observed) {
        List<A2aTool> tools = List.of(
                new AskTool(agents, clock, discoveryTimeout, heartbeat, silence, observed),
                new TaskTool(agents, discoveryTimeout),
                new CancelTool(agents, discoveryTimeout),
                new CardTool(agents, requestTimeout));
        return tools.stream().map(t -> specification(t, observed)).toList();
    }

    /**
     * The SDK's view of a tool. A {@link ToolFailure} or an {@link AgentUnavailable} becomes an error
     * result; anything unexpected is logged here and still answered as an error result.
     */
    private static SyncToolSpecification specification(A2aTool tool, ToolCalls observed) {
        return new SyncToolSpecification(tool.definition(), (exchange, request) -> observed.observe(request.name(), () -> {
            try {
                return tool.call(exchange, request);
            } catch (ToolFailure f) {
                return f.toResult();
            } catch (AgentUnavailable u) {
                return new ToolFailure(u.getMessage()).toResult();
            } catch (RuntimeException e) {
                LOG.warn("{} failed unexpectedly", request.name(), e);
                return CallToolResult.builder().addTextContent(request.name() + " failed: " + e).isError(true).build();
            }
        }));
    }
}
