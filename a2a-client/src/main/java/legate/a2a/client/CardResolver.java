package legate.a2a.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import legate.a2a.client.internal.HttpExchange;
import legate.a2a.model.A2aException;
import legate.a2a.model.ProtoJson;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCard;

/**
 * Fetches an agent's public Agent Card from {@code /.well-known/agent-card.json} (A2A §8.2) and reads
 * it leniently: unknown fields are ignored (§5.7) and the JavaScript SDK's {@code $case}/{@code value}
 * form of oneofs is accepted next to ProtoJSON.
 *
 * <p>The whole fetch is bounded by the timeout given. Fetching does not decide where to send
 * requests; the card's supportedInterfaces do (see {@link Binding#choose}).
 */
public final class CardResolver {
    /** PROTOCOL (A2A §8.2): the well-known path of the public card. */
    public static final String WELL_KNOWN_PATH = ".well-known/agent-card.json";

    private final HttpExchange exchange;
    private final Duration timeout;

    /** @param exchange the client's HTTP exchange (shared HttpClient, headers) */
    public CardResolver(HttpExchange exchange, Duration timeout) {
        this.exchange = exchange;
        this.timeout = timeout;
    }

    /**
     * The card URL for a base URL. A URL that already ends in the well-known path is kept.
     * PEER (@a2a-js/sdk 1.2.0): the path is appended to the base URL's own path, as the SDK's
     * {@code createFromUrl} does, so an agent served under {@code /a2a/} is found there.
     */
    public static URI cardUrl(URI baseUrl) {
        String s = baseUrl.toString();
        if (s.endsWith("/" + WELL_KNOWN_PATH)) {
            return baseUrl;
        }
        return URI.create((s.endsWith("/") ? s : s + "/") + WELL_KNOWN_PATH);
    }

    /**
     * GETs and parses the card of the agent at {@code baseUrl}.
     *
     * @throws TransportException when the card cannot be fetched at all, or not in time
     * @throws AgentCardException when the answer is not a card
     */
    public AgentCard fetch(URI baseUrl) {
        return read(fetchJson(baseUrl), cardUrl(baseUrl));
    }

    /**
     * GETs the card of the agent at {@code baseUrl} as the JSON object it is on the wire, which is
     * what a card signature covers (A2A §8.4).
     *
     * @throws TransportException when the card cannot be fetched at all, or not in time
     * @throws AgentCardException when the answer is not a JSON object
     */
    public JsonNode fetchJson(URI baseUrl) {
        URI url = cardUrl(baseUrl);
        HttpResponse<byte[]> response = exchange.send(exchange.request(url)
                .header("Accept", "application/json").GET().build(), timeout);
        if (response.statusCode() != 200) {
            throw new AgentCardException("no agent card at " + url + ": HTTP " + response.statusCode(), List.of());
        }
        try {
            return tree(new String(response.body(), StandardCharsets.UTF_8));
        } catch (AgentCardException e) {
            throw new AgentCardException("the answer from " + url + " " + e.getMessage(), List.of());
        }
    }

    /** Reads a card fetched from {@code url} as JSON (the URL names it in an error). */
    public static AgentCard read(JsonNode json, URI url) {
        try {
            return card(json);
        } catch (AgentCardException e) {
            throw new AgentCardException("the answer from " + url + " " + e.getMessage(), List.of());
        }
    }

    /**
     * Parses card JSON leniently.
     *
     * @throws AgentCardException when the text is not JSON or not an Agent Card
     */
    public static AgentCard parse(String json) {
        return card(tree(json));
    }

    private static JsonNode tree(String json) {
        JsonNode tree;
        try {
            tree = WireJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new AgentCardException("is not JSON: " + e.getOriginalMessage(), List.of());
        }
        if (tree == null || !tree.isObject()) {
            throw new AgentCardException("is not a JSON object, so not an agent card", List.of());
        }
        return tree;
    }

    private static AgentCard card(JsonNode tree) {
        try {
            return ProtoJson.read(flattenCaseOneofs(tree), "card", AgentCard.newBuilder()).build();
        } catch (A2aException e) {
            throw new AgentCardException("is not an agent card: " + e.getMessage(), List.of());
        }
    }

    /**
     * PEER (@a2a-js/sdk 1.2.0): its well-known card handler writes {@code JSON.stringify} of the SDK
     * object, so a oneof arrives as {@code "scheme":{"$case":"httpAuthSecurityScheme","value":{…}}}
     * instead of ProtoJSON's {@code "httpAuthSecurityScheme":{…}}. Left as it
     * is, ProtoJSON would ignore the unknown key and lose the security scheme without a word.
     */
    static JsonNode flattenCaseOneofs(JsonNode node) {
        if (node.isArray()) {
            ArrayNode out = WireJson.mapper().createArrayNode();
            node.forEach(element -> out.add(flattenCaseOneofs(element)));
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        ObjectNode out = WireJson.mapper().createObjectNode();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            JsonNode value = field.getValue();
            JsonNode caseName = value.isObject() ? value.get("$case") : null;
            if (caseName != null && caseName.isTextual()) {
                JsonNode member = value.get("value");
                if (member != null && !member.isNull()) {
                    out.set(caseName.textValue(), flattenCaseOneofs(member));
                }
            } else {
                out.set(field.getKey(), flattenCaseOneofs(value));
            }
        }
        return out;
    }
}
