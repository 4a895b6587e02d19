package legate.acp.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import legate.acp.connection.AcpException;
import legate.acp.connection.ClientHandler;
import legate.acp.log.BridgeLogs;
import legate.acp.log.LogFields;
import legate.acp.permission.FileSystemAccess;
import legate.acp.permission.PathOutsideRoot;
import legate.acp.permission.PermissionPolicy;
import legate.acp.permission.PermissionRequest;
import legate.acp.permission.PermissionVerdict;
import legate.acp.permission.PolicyAction;
import legate.acp.permission.PolicyDecision;
import legate.acp.permission.SessionRoot;
import legate.acp.protocol.AcpErrorCode;
import legate.acp.protocol.AcpMethods;
import legate.acp.protocol.SessionNotification;
import legate.wire.jsonrpc.JsonRpcError;

/**
 * The bridge as the ACP client of one session: it routes the session's updates to the running turn,
 * decides permission requests with the {@link PermissionPolicy} (putting those it says to ask to the
 * A2A caller through the running turn), and serves {@code fs/*} only inside the session's root.
 */
final class SessionClient implements ClientHandler {
    private final String contextId;
    private final SessionRoot root;
    private final PermissionPolicy policy;
    private final FileSystemAccess files;
    private final BridgeLogs logs;
    private volatile String sessionId;
    private volatile TurnListener turn;

    SessionClient(String contextId, SessionRoot root, PermissionPolicy policy, BridgeLogs logs) {
        this.contextId = contextId;
        this.root = root;
        this.policy = policy;
        this.files = new FileSystemAccess(root);
        this.logs = logs;
    }

    void sessionId(String id) {
        this.sessionId = id;
    }

    void turn(TurnListener listener) {
        this.turn = listener;
    }

    @Override
    public void onNotification(String method, JsonNode params) {
        if (!AcpMethods.SESSION_UPDATE.equals(method)) {
            logs.work("notification.ignored", ids().and("method", method).map());
            return;
        }
        SessionNotification n = SessionNotification.fromJson(params);
        TurnListener listener = turn;
        if (listener != null && n.sessionId().equals(sessionId)) {
            listener.onUpdate(n.update());
        } else {
            // PEER (claude-agent-acp, codex-acp): available_commands_update and config_option_update arrive
            // right after session/new, before any turn.
            logs.work("update.between_turns", ids().and("kind", n.update().kind()).map());
        }
    }

    @Override
    public JsonNode onRequest(String method, JsonNode params) throws AcpException {
        return switch (method) {
            case AcpMethods.SESSION_REQUEST_PERMISSION -> permission(params);
            case AcpMethods.FS_READ_TEXT_FILE -> read(params);
            case AcpMethods.FS_WRITE_TEXT_FILE -> write(params);
            // PROTOCOL (ACP): terminal/* is only called when the client advertises it, which the bridge does not.
            default -> throw new AcpException(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + method
                    + " (this client serves session/request_permission, fs/read_text_file and fs/write_text_file)");
        };
    }

    private JsonNode permission(JsonNode params) throws AcpException {
        PermissionRequest request = PermissionRequest.fromParams(params);
        PolicyDecision decision = policy.decide(request, root);
        TurnListener listener = turn;
        PermissionVerdict verdict = decision.verdict();
        boolean asked = decision.action() == PolicyAction.ASK && listener != null;
        if (asked) {
            try {
                // The agent waits for this answer while the caller is asked; its other requests go on.
                verdict = listener.ask(request, params == null ? null : params.get("toolCall"), decision);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AcpException(JsonRpcError.INTERNAL_ERROR, "the bridge stopped while asking");
            }
        }
        logs.work("permission", ids().and("toolCallId", request.toolCallId()).and("title", request.title())
                .and("kind", request.kind()).and("paths", request.paths()).and("command", request.command())
                .and("options", request.options()).and("action", decision.action().value()).and("rule", decision.rule())
                .and("asked", asked).and("allowed", verdict.allowed()).and("optionId", verdict.optionId())
                .and("reason", verdict.reason()).map());
        if (listener != null) {
            listener.onPermission(request, verdict, asked);
        }
        return verdict.toResult();
    }

    private JsonNode read(JsonNode params) throws AcpException {
        String path = params == null ? null : params.path("path").asText(null);
        Integer line = intOrNull(params, "line");
        Integer limit = intOrNull(params, "limit");
        try {
            String content = files.readTextFile(path, line, limit);
            logs.work("fs.read", ids().and("path", path).and("line", line).and("limit", limit)
                    .and("chars", content.length()).map());
            ObjectNode result = JsonNodeFactory.instance.objectNode();
            result.put("content", content);
            return result;
        } catch (PathOutsideRoot e) {
            throw refused(AcpMethods.FS_READ_TEXT_FILE, path, e);
        } catch (NoSuchFileException e) {
            throw new AcpException(AcpErrorCode.RESOURCE_NOT_FOUND, "Resource not found: no file at " + path);
        } catch (IOException e) {
            throw new AcpException(JsonRpcError.INTERNAL_ERROR, "Cannot read " + path + ": " + e.getMessage());
        }
    }

    private JsonNode write(JsonNode params) throws AcpException {
        String path = params == null ? null : params.path("path").asText(null);
        JsonNode content = params == null ? null : params.get("content");
        if (content == null || !content.isTextual()) {
            throw new AcpException(JsonRpcError.INVALID_PARAMS, "Invalid params: fs/write_text_file needs a string content");
        }
        try {
            files.writeTextFile(path, content.asText());
            logs.work("fs.write", ids().and("path", path).and("chars", content.asText().length()).map());
            return JsonNodeFactory.instance.objectNode();
        } catch (PathOutsideRoot e) {
            throw refused(AcpMethods.FS_WRITE_TEXT_FILE, path, e);
        } catch (IOException e) {
            throw new AcpException(JsonRpcError.INTERNAL_ERROR, "Cannot write " + path + ": " + e.getMessage());
        }
    }

    private AcpException refused(String method, String path, PathOutsideRoot e) {
        logs.work("fs.denied", ids().and("method", method).and("path", path).and("reason", e.getMessage()).map());
        TurnListener listener = turn;
        if (listener != null) {
            listener.onFileRefused(method, path, e.getMessage());
        }
        return new AcpException(JsonRpcError.INVALID_PARAMS, "Refused: " + e.getMessage());
    }

    private static Integer intOrNull(JsonNode params, String field) {
        JsonNode v = params == null ? null : params.get(field);
        return v != null && v.canConvertToInt() ? v.intValue() : null;
    }

    /** Work records carry the conversation, the task and the session they belong to. */
    private LogFields ids() {
        TurnListener listener = turn;
        return LogFields.of("contextId", contextId).and("taskId", listener == null ? null : listener.taskId())
                .and("sessionId", sessionId);
    }
}
