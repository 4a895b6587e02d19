package legate.mcp.tool;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * One of the four MCP tools through which a calling agent reaches an A2A agent: its definition as
 * {@code tools/list} shows it, and its call. A call reports a failure by throwing
 * {@link ToolFailure}; {@link A2aTools} turns that into an error result.
 */
sealed interface A2aTool permits AskTool, TaskTool, CancelTool, CardTool {
    /** The argument naming the agent, shared by all four tools. */
    String AGENT = "agent";

    Tool definition();

    CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request);
}
