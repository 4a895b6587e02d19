package legate.a2a.model.signature;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import legate.a2a.model.ProtoJson;
import legate.wire.json.CanonicalJson;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCard;

/**
 * What an Agent Card signature signs: the card's JSON without its {@code signatures} member, in
 * RFC 8785 canonical form.
 *
 * <p>PROTOCOL (A2A §8.4): the payload is the card's ProtoJSON with {@code signatures} removed,
 * canonicalized with JCS; the JWS carries it detached. A verifier rebuilds it from the card as it
 * was received (its JSON tree, fields this proto does not know included), never from a re-printed
 * model object, so that what is checked is what the agent sent.
 */
public final class CardPayload {
    private static final String SIGNATURES = "signatures";

    private CardPayload() {
    }

    /** The payload of a card as received: its JSON object. */
    public static byte[] of(JsonNode card) {
        if (!card.isObject()) {
            throw new IllegalArgumentException("an Agent Card is a JSON object");
        }
        ObjectNode copy = ((ObjectNode) card).deepCopy();
        copy.remove(SIGNATURES);
        return CanonicalJson.bytes(copy);
    }

    /** The payload of a card about to be served: its ProtoJSON as the card endpoint prints it. */
    public static byte[] of(AgentCard card) {
        try {
            return of(WireJson.mapper().readTree(ProtoJson.print(card.toBuilder().clearSignatures())));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("ProtoJSON printed a card that is not JSON", e);
        }
    }
}
