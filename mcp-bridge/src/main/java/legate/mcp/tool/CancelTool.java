package legate.mcp.tool;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.time.Duration;
import legate.a2a.client.A2aClientException;
import legate.mcp.upstream.AgentDirectory;
import legate.mcp.upstream.AgentLink;

/**
 * {@code a2a_cancel}: asks the agent to stop a task (CancelTask) and shows the task as it ends.
 * PROTOCOL (A2A §3.1.5): a task already terminal cannot be canceled (-32002); that is an error
 * result for the caller, not a failure of the endpoint.
 */
final class CancelTool implements A2aTool {
    static final String NAME = "a2a_cancel";

    private final AgentDirectory agents;
    private final Duration discoveryTimeout;

    CancelTool(AgentDirectory agents, Duration discoveryTimeout) {
        this.agents = agents;
        this.discoveryTimeout = discoveryTimeout;
    }

    @Override
    public Tool definition() {
        return Tool.builder(NAME, ToolSchema.object()
                        .string("taskId", "The task to stop, as a2a_ask reported it.", true)
                        .string(AGENT, agents.describeArgument(), false)
                        .build())
                .title("Cancel an A2A task")
                .description("Ask an A2A agent to stop a task. The result shows the task once it is canceled; a task "
                        + "that already ended cannot be canceled, and the result says so.")
                .outputSchema(TaskReport.OUTPUT_SCHEMA)
                .annotations(ToolAnnotations.builder().readOnlyHint(false).destructiveHint(true)
                        .idempotentHint(false).openWorldHint(true).build())
                .build();
    }

    @Override
    public CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request) {
        ToolArguments args = ToolArguments.of(request);
        String taskId = args.requiredId("taskId");
        AgentLink link = agents.resolve(args.optional(AGENT));
        try {
            return TaskReport.of(link.alias(), link.client(discoveryTimeout).cancelTask(taskId)).toResult();
        } catch (A2aClientException e) {
            throw new ToolFailure("agent " + link.alias() + " did not cancel task " + taskId + ": " + e.getMessage());
        }
    }
}
