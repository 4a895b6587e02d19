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

/** {@code a2a_task}: reads a task back (GetTask): its state, artifacts and the agent's last status message. */
final class TaskTool implements A2aTool {
    static final String NAME = "a2a_task";

    private final AgentDirectory agents;
    private final Duration discoveryTimeout;

    /** @param discoveryTimeout how long a call waits for the agent's card; the GetTask bound is the client's */
    TaskTool(AgentDirectory agents, Duration discoveryTimeout) {
        this.agents = agents;
        this.discoveryTimeout = discoveryTimeout;
    }

    @Override
    public Tool definition() {
        return Tool.builder(NAME, ToolSchema.object()
                        .string("taskId", "The task to read, as a2a_ask reported it.", true)
                        .string(AGENT, agents.describeArgument(), false)
                        .build())
                .title("Read an A2A task")
                .description("Read a task of an A2A agent back: its state, its artifacts and the agent's last status "
                        + "message. Use it to find work again after a2a_ask was cut short, or to check on a task.")
                .outputSchema(TaskReport.OUTPUT_SCHEMA)
                .annotations(ToolAnnotations.builder().readOnlyHint(true).openWorldHint(true).build())
                .build();
    }

    @Override
    public CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request) {
        ToolArguments args = ToolArguments.of(request);
        String taskId = args.requiredId("taskId");
        AgentLink link = agents.resolve(args.optional(AGENT));
        try {
            return TaskReport.of(link.alias(), link.client(discoveryTimeout).getTask(taskId)).toResult();
        } catch (A2aClientException e) {
            throw new ToolFailure("agent " + link.alias() + " could not show task " + taskId + ": " + e.getMessage());
        }
    }
}
