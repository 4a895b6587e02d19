package legate.a2a.server.v03;

import static legate.a2a.server.v03.V03SecuritySchemes.putIfSet;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentExtension;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.AgentSkill;

/**
 * The Agent Card as v0.3 writes it, what agent/getAuthenticatedExtendedCard answers: one
 * {@code url} with its {@code preferredTransport} and {@code protocolVersion} at the top, the
 * other interfaces in {@code additionalInterfaces} ({@code {url, transport}}), and
 * {@code supportsAuthenticatedExtendedCard} beside the capabilities. Only the card's 0.3
 * interfaces are listed: a v0.3 card has one protocol version for all of them. The card's
 * signatures are left out: they sign the v1.0 ProtoJSON of the card (A2A §8.4), which a v0.3
 * rendering is not.
 */
final class V03Cards {
    static final String VERSION = "0.3";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private V03Cards() {
    }

    static ObjectNode toV03(AgentCard card) {
        List<AgentInterface> v03 = card.getSupportedInterfacesList().stream()
                .filter(i -> i.getProtocolVersion().equals(VERSION)).toList();
        if (v03.isEmpty() && card.getSupportedInterfacesCount() > 0) {
            v03 = List.of(card.getSupportedInterfaces(0));
        }
        ObjectNode out = JSON.objectNode();
        out.put("protocolVersion", VERSION);
        out.put("name", card.getName());
        out.put("description", card.getDescription());
        if (!v03.isEmpty()) {
            out.put("url", v03.getFirst().getUrl());
            out.put("preferredTransport", v03.getFirst().getProtocolBinding());
        }
        if (v03.size() > 1) {
            ArrayNode more = out.putArray("additionalInterfaces");
            v03.stream().skip(1).forEach(i -> more.addObject().put("url", i.getUrl()).put("transport", i.getProtocolBinding()));
        }
        if (card.hasProvider()) {
            out.putObject("provider").put("organization", card.getProvider().getOrganization())
                    .put("url", card.getProvider().getUrl());
        }
        out.put("version", card.getVersion());
        putIfSet(out, "documentationUrl", card.getDocumentationUrl());
        putIfSet(out, "iconUrl", card.getIconUrl());
        out.set("capabilities", capabilities(card.getCapabilities()));
        if (card.getSecuritySchemesCount() > 0) {
            out.set("securitySchemes", V03SecuritySchemes.schemes(card.getSecuritySchemesMap()));
        }
        if (card.getSecurityRequirementsCount() > 0) {
            out.set("security", V03SecuritySchemes.requirements(card.getSecurityRequirementsList()));
        }
        out.set("defaultInputModes", strings(card.getDefaultInputModesList()));
        out.set("defaultOutputModes", strings(card.getDefaultOutputModesList()));
        ArrayNode skills = out.putArray("skills");
        card.getSkillsList().forEach(s -> skills.add(skill(s)));
        if (card.getCapabilities().hasExtendedAgentCard()) {
            out.put("supportsAuthenticatedExtendedCard", card.getCapabilities().getExtendedAgentCard());
        }
        return out;
    }

    private static ObjectNode capabilities(AgentCapabilities c) {
        ObjectNode out = JSON.objectNode();
        if (c.hasStreaming()) {
            out.put("streaming", c.getStreaming());
        }
        if (c.hasPushNotifications()) {
            out.put("pushNotifications", c.getPushNotifications());
        }
        if (c.getExtensionsCount() > 0) {
            ArrayNode extensions = out.putArray("extensions");
            for (AgentExtension e : c.getExtensionsList()) {
                ObjectNode x = extensions.addObject().put("uri", e.getUri());
                putIfSet(x, "description", e.getDescription());
                x.put("required", e.getRequired());
                if (e.hasParams()) {
                    x.set("params", StructJson.json(e.getParams()));
                }
            }
        }
        return out;
    }

    private static ObjectNode skill(AgentSkill s) {
        ObjectNode out = JSON.objectNode().put("id", s.getId()).put("name", s.getName())
                .put("description", s.getDescription());
        out.set("tags", strings(s.getTagsList()));
        V03Messages.putStrings(out, "examples", s.getExamplesList());
        V03Messages.putStrings(out, "inputModes", s.getInputModesList());
        V03Messages.putStrings(out, "outputModes", s.getOutputModesList());
        if (s.getSecurityRequirementsCount() > 0) {
            out.set("security", V03SecuritySchemes.requirements(s.getSecurityRequirementsList()));
        }
        return out;
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode out = JSON.arrayNode();
        values.forEach(out::add);
        return out;
    }
}
