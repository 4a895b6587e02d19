package legate.cli.client;

import java.util.ArrayList;
import java.util.List;
import legate.a2a.client.Binding;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.AgentSkill;

/** An Agent Card (A2A §4.4.1) as lines a person reads, with the interface the client dials marked. */
final class CardText {
    private CardText() {
    }

    static List<String> lines(AgentCard card, AgentInterface chosen, Palette p) {
        List<String> out = new ArrayList<>();
        out.add(p.bold(card.getName()) + " " + card.getVersion()
                + (card.hasProvider() ? p.dim("  by " + card.getProvider().getOrganization()) : ""));
        if (!card.getDescription().isBlank()) {
            out.add("  " + card.getDescription());
        }
        out.add("  interfaces");
        for (AgentInterface i : card.getSupportedInterfacesList()) {
            boolean dialed = i.equals(chosen);
            out.add("    " + (dialed ? "* " : "  ") + Binding.describe(i)
                    + (i.getTenant().isEmpty() ? "" : " (tenant " + i.getTenant() + ")")
                    + (dialed ? p.dim("  (dialed)") : ""));
        }
        AgentCapabilities c = card.getCapabilities();
        out.add("  capabilities  streaming " + yesNo(c.getStreaming()) + ", push notifications " + yesNo(c.getPushNotifications())
                + ", extended card " + yesNo(c.getExtendedAgentCard())
                + (c.getExtensionsCount() == 0 ? "" : ", " + c.getExtensionsCount() + " extension(s)"));
        out.add("  input         " + String.join(", ", card.getDefaultInputModesList()));
        out.add("  output        " + String.join(", ", card.getDefaultOutputModesList()));
        if (card.getSecuritySchemesCount() > 0) {
            out.add("  security      " + String.join(", ", card.getSecuritySchemesMap().keySet()));
        }
        for (AgentSkill s : card.getSkillsList()) {
            out.add("  skill " + p.bold(s.getId()) + "  " + s.getName());
            if (!s.getDescription().isBlank()) {
                out.add("    " + s.getDescription());
            }
            for (String example : s.getExamplesList()) {
                out.add("    " + p.dim("e.g. ") + example);
            }
        }
        return out;
    }

    private static String yesNo(boolean b) {
        return b ? "yes" : "no";
    }
}
