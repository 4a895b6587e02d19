package legate.mcp.upstream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.TaskArtifactUpdateEvent;

/**
 * A task's artifacts as a turn's events build them up, keyed by artifactId in the order each first
 * appeared. Single-threaded: one turn folds its own events.
 *
 * <p>PROTOCOL (A2A §4.2.2, TaskArtifactUpdateEvent): {@code append} true adds the event's parts to
 * the artifact of that id; false replaces the artifact whole. Parts are never merged or re-encoded,
 * so every data part survives as the agent sent it.
 */
public final class ArtifactAggregate {
    private final Map<String, Artifact> byId = new LinkedHashMap<>();

    /**
     * A Task event: its artifacts are the task as stored, earlier turns included, so each replaces
     * what was known under its id and nothing known is dropped.
     */
    public void snapshot(List<Artifact> artifacts) {
        artifacts.forEach(a -> byId.put(a.getArtifactId(), a));
    }

    public void apply(TaskArtifactUpdateEvent update) {
        Artifact incoming = update.getArtifact();
        Artifact known = byId.get(incoming.getArtifactId());
        if (!update.getAppend() || known == null) {
            // An append to an id never seen (its first chunk lost) starts the artifact rather than vanish.
            byId.put(incoming.getArtifactId(), incoming);
            return;
        }
        Artifact.Builder extended = known.toBuilder().addAllParts(incoming.getPartsList());
        if (known.getName().isEmpty()) {
            extended.setName(incoming.getName());
        }
        if (known.getDescription().isEmpty()) {
            extended.setDescription(incoming.getDescription());
        }
        if (incoming.hasMetadata()) {
            extended.mergeMetadata(incoming.getMetadata());
        }
        byId.put(incoming.getArtifactId(), extended.build());
    }

    public List<Artifact> artifacts() {
        return new ArrayList<>(byId.values());
    }
}
