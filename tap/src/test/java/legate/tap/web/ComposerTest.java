package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.Test;

/**
 * Which of the card's interfaces the page's composer posts its v1.0 JSON-RPC SendStreamingMessage
 * to. DEFECT: it took the first one, whatever its binding or version.
 */
class ComposerTest {
    private static JsonNode card(String interfaces) throws Exception {
        return WireJson.mapper().readTree("{\"name\":\"a\",\"supportedInterfaces\":[" + interfaces + "]}");
    }

    private static String iface(String binding, String version, String url) {
        return "{\"url\":\"" + url + "\",\"protocolBinding\":\"" + binding + "\",\"protocolVersion\":\"" + version + "\"}";
    }

    // PROTOCOL (A2A §8.3.2): the card lists its interfaces in the agent's order of preference, so
    // REST, gRPC or v0.3 may come first; the composer speaks v1.0 JSON-RPC and must find that one.
    @Test
    void theV1JsonRpcInterfaceIsChosenWhereverTheCardListsIt() throws Exception {
        assertThat(Composer.jsonRpcPath(card(String.join(",",
                iface("HTTP+JSON", "1.0", "http://127.0.0.1:8080/a2a/rest"),
                iface("GRPC", "1.0", "127.0.0.1:9090"),
                iface("JSONRPC", "0.3", "http://127.0.0.1:8080/v0.3/"),
                iface("JSONRPC", "1.0", "http://127.0.0.1:8080/a2a/")))))
                .isEqualTo("/a2a/");
        // PROTOCOL (A2A §3.6): a patch number does not make it another version.
        assertThat(Composer.jsonRpcPath(card(iface("JSONRPC", "1.0.1", "http://127.0.0.1:8080/rpc")))).isEqualTo("/rpc");
    }

    @Test
    void aCardWithoutAV1JsonRpcInterfaceNamesNoPath() throws Exception {
        assertThat(Composer.jsonRpcPath(card(String.join(",",
                iface("HTTP+JSON", "1.0", "http://127.0.0.1:8080/a2a"),
                iface("JSONRPC", "0.3", "http://127.0.0.1:8080/v0.3/"))))).isNull();
        assertThat(Composer.jsonRpcPath(card(iface("JSONRPC", "1.0", "not a uri")))).isNull();
        assertThat(Composer.jsonRpcPath(WireJson.mapper().readTree("{}"))).isNull();
    }
}
