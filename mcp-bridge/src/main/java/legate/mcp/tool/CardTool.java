package legate.mcp.tool;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.time.Duration;
import java.util.Map;
import legate.a2a.model.ProtoJson;
import legate.mcp.upstream.AgentDirectory;
import legate.mcp.upstream.AgentLink;
import lf.a2a.v1.AgentCard;

/**
 * {@code a2a_card}: the agent's card (A2A §8), what it says it can do and how to reach it, in its
 * ProtoJSON wire form. The card comes from the shared handshake, so reading it costs no request
 * once an agent has been reached.
 */
final class CardTool implements A2aTool {
    static final String NAME = "a2a_card";

    private final AgentDirectory agents;
    private final Duration requestTimeout;

    CardTool(AgentDirectory agents, Duration requestTimeout) {
        this.agents = agents;
        this.requestTimeout = requestTimeout;
    }

    @Override
    public Tool definition() {
        return Tool.builder(NAME, ToolSchema.object().string(AGENT, agents.describeArgument(), false).build())
                .title("Show an A2A agent's card")
                .description("Show the agent card an A2A agent publishes: its name, description, skills and the "
                        + "interfaces it serves.")
                .outputSchema(Map.of("type", "object"))
                .annotations(ToolAnnotations.builder().readOnlyHint(true).openWorldHint(true).build())
                .build();
    }

    @Override
    public CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request) {
        AgentLink link = agents.resolve(ToolArguments.of(request).optional(AGENT));
        AgentCard card = link.client(requestTimeout).card();
        return CallToolResult.builder()
                .addTextContent("Agent " + link.alias() + " (" + link.baseUrl() + "):\n" + ProtoJson.pretty(card))
                .structuredContent(StructuredJson.of(card))
                .build();
    }
}
