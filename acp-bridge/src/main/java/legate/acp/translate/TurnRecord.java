package legate.acp.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import legate.acp.adapter.Backend;
import legate.acp.adapter.UsageBudget;
import legate.acp.protocol.StopReason;
import legate.wire.json.WireJson;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Part;

/**
 * The whole record of a turn, as the artifacts of its task carry it (README, "The record of a
 * turn"): the answer artifact, whose id is stable, with the turn's data part, and the
 * {@code changes} artifact with one unified diff per edited file.
 */
final class TurnRecord {
    /** The answer artifact's id: the same in every task, so a caller finds the answer without searching. */
    static final String ANSWER_ID = "answer";
    /** The id of the artifact holding the agent's edits. */
    static final String CHANGES_ID = "changes";

    private final Backend backend;
    private final String sessionId;
    private final String root;
    private final ToolCallRecords toolCalls;
    private final Refusals refusals;
    private final UsageBudget budget;

    TurnRecord(Backend backend, String sessionId, String root, ToolCallRecords toolCalls, Refusals refusals,
               UsageBudget budget) {
        this.backend = backend;
        this.sessionId = sessionId;
        this.root = root;
        this.toolCalls = toolCalls;
        this.refusals = refusals;
        this.budget = budget;
    }

    /** A text part with the answer (when there is text), then the data part with the record. */
    Artifact answer(StopReason stop, JsonNode usage, String text) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("backend", backend.id());
        data.put("sessionId", sessionId);
        data.put("root", root);
        data.put("stopReason", stop.value());
        data.set("toolCalls", toolCalls.data());
        data.put("failedToolCalls", toolCalls.failed());
        data.set("refusals", refusals.data());
        if (usage != null) {
            data.set("usage", usage);
        }
        data.set("budget", WireJson.mapper().valueToTree(budget.snapshot()));
        Artifact.Builder a = Artifact.newBuilder().setArtifactId(ANSWER_ID).setName(ANSWER_ID)
                .setDescription(backend.displayName() + "'s answer");
        if (!text.isEmpty()) {
            a.addParts(Part.newBuilder().setText(text).setMediaType("text/plain"));
        }
        return a.addParts(Part.newBuilder().setData(AcpMetadata.value(data)).setMediaType("application/json")).build();
    }

    /** One text part per file (its unified diff, the path in the part's metadata), then {@code {"files": [...]}}. */
    Artifact changes(List<ToolCallRecords.FileChange> changes) {
        Artifact.Builder a = Artifact.newBuilder().setArtifactId(CHANGES_ID).setName(CHANGES_ID)
                .setDescription("The files " + backend.displayName() + " edited, one unified diff per file");
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        ArrayNode files = data.putArray("files");
        for (ToolCallRecords.FileChange c : changes) {
            ObjectNode path = JsonNodeFactory.instance.objectNode().put("path", c.path());
            a.addParts(Part.newBuilder().setText(c.diff()).setMediaType("text/x-diff")
                    .setMetadata(AcpMetadata.value(path).getStructValue()));
            files.add(path);
        }
        return a.addParts(Part.newBuilder().setData(AcpMetadata.value(data)).setMediaType("application/json")).build();
    }
}
