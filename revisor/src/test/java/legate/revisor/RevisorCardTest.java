package legate.revisor;

import static org.assertj.core.api.Assertions.assertThat;

import legate.a2a.model.LegateExtensions;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentExtension;
import lf.a2a.v1.AgentSkill;
import org.junit.jupiter.api.Test;

/** Revisor's card: its one skill, and what every Legate card declares (README "Tasks that last"). */
class RevisorCardTest {
    @Test
    void theCardNamesTheSkillAndDeclaresResumableStreams() {
        AgentCard card = RevisorCard.build(null, "http://127.0.0.1:41241/");
        assertThat(card.getName()).isEqualTo(RevisorCard.DEFAULT_NAME);
        assertThat(card.getSkillsList()).extracting(AgentSkill::getId).containsExactly("text_stats");
        assertThat(card.getCapabilities().getExtensionsList()).extracting(AgentExtension::getUri)
                .containsExactly(LegateExtensions.RESUMABLE_STREAMS);
    }
}
