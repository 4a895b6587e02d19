package legate.mcp.tool;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import legate.mcp.upstream.AgentUnavailable;

/**
 * Why a tool call answers with {@code isError}: bad arguments, or an agent that answered with an A2A
 * error (an agent that cannot be had is an {@link AgentUnavailable}). Thrown inside a tool and turned
 * into a tool result by {@link A2aTools}, so a failed call costs the caller one error result and
 * nothing else.
 *
 * <p>PROTOCOL (MCP 2025-06-18, tools, error handling): errors in using a tool are reported in the
 * result with {@code isError: true}, where the calling model can read them and try again, not as
 * JSON-RPC errors, which are for a call that could not be made at all.
 */
final class ToolFailure extends RuntimeException {
    ToolFailure(String message) {
        super(message, null, false, false);
    }

    CallToolResult toResult() {
        return CallToolResult.builder().addTextContent(getMessage()).isError(true).build();
    }
}
