package legate.a2a.server.card;

import static org.assertj.core.api.Assertions.assertThat;

import legate.a2a.model.LegateExtensions;
import legate.a2a.model.ProtoJson;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentExtension;
import org.junit.jupiter.api.Test;

/** What every Legate card declares, whatever agent stands behind it (README "Tasks that last"). */
class LegateCardsTest {
    @Test
    void everyCardDeclaresResumableStreamsAsAnOptionalExtension() {
        AgentCard card = LegateCards.jsonRpc("n", "d", "http://127.0.0.1:1/").build();
        // PROTOCOL (A2A §4.6): extensions are discovered in capabilities.extensions, by URI.
        AgentExtension ext = card.getCapabilities().getExtensionsList().stream()
                .filter(e -> e.getUri().equals(LegateExtensions.RESUMABLE_STREAMS)).findFirst().orElseThrow();
        assertThat(ext.getUri()).isEqualTo("urn:legate:a2a:ext:resumable-streams:v1");
        assertThat(ext.getRequired()).isFalse();
        assertThat(ext.getDescription()).contains("Last-Event-ID").contains("SubscribeToTask");
        assertThat(ProtoJson.print(card)).contains("\"extensions\":[{\"uri\":\"urn:legate:a2a:ext:resumable-streams:v1\"");
    }
}
