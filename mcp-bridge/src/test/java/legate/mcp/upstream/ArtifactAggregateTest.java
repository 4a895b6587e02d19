package legate.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.List;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import org.junit.jupiter.api.Test;

/** The artifact rules of A2A §4.2.2 as a caller of a2a_ask sees them in the result. */
class ArtifactAggregateTest {
    private final ArtifactAggregate aggregate = new ArtifactAggregate();

    // PROTOCOL (A2A §4.2.2): append true extends the artifact of that id with the event's parts.
    @Test
    void anAppendExtendsTheArtifactAndKeepsEveryDataPart() {
        aggregate.apply(update(artifact("report", text("first")), false));
        aggregate.apply(update(artifact("report", data(1)), true));
        aggregate.apply(update(artifact("report", data(2)), true));

        assertThat(aggregate.artifacts()).singleElement().satisfies(a -> assertThat(a.getPartsList())
                .containsExactly(text("first"), data(1), data(2)));
    }

    // PROTOCOL (A2A §4.2.2): without append, an artifact of the same id replaces the old one whole.
    @Test
    void withoutAppendTheArtifactIsReplaced() {
        aggregate.apply(update(artifact("report", text("draft")), false));
        aggregate.apply(update(artifact("report", text("final")), false));

        assertThat(aggregate.artifacts()).singleElement()
                .satisfies(a -> assertThat(a.getPartsList()).containsExactly(text("final")));
    }

    // A continuation's Task snapshot holds the artifacts of earlier turns; they stay in the result.
    @Test
    void artifactsOfEarlierTurnsInTheSnapshotAreKeptBesideNewOnes() {
        aggregate.snapshot(List.of(artifact("earlier", text("from turn 1"))));
        aggregate.apply(update(artifact("later", text("from turn 2")), false));

        assertThat(aggregate.artifacts()).extracting(Artifact::getArtifactId).containsExactly("earlier", "later");
    }

    @Test
    void anAppendToAnUnknownIdStartsTheArtifact() {
        aggregate.apply(update(artifact("late", text("second chunk")), true));

        assertThat(aggregate.artifacts()).extracting(Artifact::getArtifactId).containsExactly("late");
    }

    private static TaskArtifactUpdateEvent update(Artifact a, boolean append) {
        return TaskArtifactUpdateEvent.newBuilder().setTaskId("t").setContextId("c").setArtifact(a).setAppend(append).build();
    }

    private static Artifact artifact(String id, Part part) {
        return Artifact.newBuilder().setArtifactId(id).addParts(part).build();
    }

    private static Part text(String s) {
        return Part.newBuilder().setText(s).build();
    }

    private static Part data(int n) {
        return Part.newBuilder().setData(Value.newBuilder().setStructValue(Struct.newBuilder()
                .putFields("n", Value.newBuilder().setNumberValue(n).build()))).build();
    }
}
