package legate.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import legate.a2a.server.card.LegateCards;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import org.junit.jupiter.api.Test;

/**
 * A2A_BINDINGS as an operator writes it, and the card it produces (README "Protocol bindings").
 * PROTOCOL (A2A §8.3.2): clients dial the first interface they speak, so the card's order must be
 * the operator's, and a card must not advertise an interface nothing answers.
 */
class ProtocolBindingTest {
    @Test
    void namesAreCaseInsensitiveAndKeepTheirOrder() {
        List<ProtocolBinding> served = ProtocolBinding.parse(" jsonrpc ");
        assertThat(served).containsExactly(ProtocolBinding.JSONRPC);
        assertThat(ProtocolBinding.parse("")).isEqualTo(ProtocolBinding.defaults());
        assertThat(ProtocolBinding.defaults()).startsWith(ProtocolBinding.JSONRPC);
    }

    @Test
    void aWordThatIsNoBindingIsRefusedNamingTheWordAndTheNames() {
        assertThatThrownBy(() -> ProtocolBinding.parse("JSONRPC,SOAP"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"SOAP\" is not a binding").hasMessageContaining("HTTP+JSON");
        assertThatThrownBy(() -> ProtocolBinding.parse("JSONRPC,jsonrpc"))
                .hasMessageContaining("twice");
    }

    // Until its helper lands, a binding without a handler is refused at start, never advertised.
    @Test
    void aBindingThisBuildDoesNotServeIsRefusedAtStart() {
        for (ProtocolBinding b : ProtocolBinding.values()) {
            if (!ProtocolBinding.SERVED.contains(b)) {
                assertThatThrownBy(() -> ProtocolBinding.parse(b.settingName()))
                        .hasMessageContaining("not served by this build yet");
                assertThatThrownBy(() -> ServerConfig.loopback(0).withBindings(List.of(b)))
                        .hasMessageContaining(b.settingName());
            }
        }
    }

    @Test
    void theCardListsOneInterfacePerServedBindingInTheGivenOrder() {
        AgentCard named = LegateCards.jsonRpc("n", "d", "http://127.0.0.1:7/a2a/").build();
        List<ProtocolBinding> all = List.of(ProtocolBinding.values());
        AgentCard card = LegateCards.withInterfaces(named, all.reversed(), 9);
        assertThat(card.getSupportedInterfacesList()).extracting(AgentInterface::getProtocolBinding,
                        AgentInterface::getProtocolVersion, AgentInterface::getUrl)
                .containsExactly(
                        tuple("JSONRPC", "0.3", "http://127.0.0.1:7/a2a/v0.3/"),
                        tuple("GRPC", "1.0", "127.0.0.1:9"),
                        tuple("HTTP+JSON", "1.0", "http://127.0.0.1:7/a2a"),
                        tuple("JSONRPC", "1.0", "http://127.0.0.1:7/a2a/"));
    }

    // PROTOCOL (A2A §10): the gRPC interface is host:port; GRPC_PUBLIC_ADDRESS names a proxy in front of it instead.
    @Test
    void theGrpcInterfaceIsTheGrpcPortOrThePublicAddressGiven() {
        AgentCard named = LegateCards.jsonRpc("n", "d", "http://[::1]:7/").build();
        assertThat(LegateCards.withInterfaces(named, List.of(ProtocolBinding.GRPC), 9).getSupportedInterfaces(0).getUrl())
                .isEqualTo("[::1]:9");
        assertThat(LegateCards.withInterfaces(named, List.of(ProtocolBinding.GRPC), 9, "localhost:41242")
                .getSupportedInterfaces(0).getUrl()).isEqualTo("localhost:41242");
        assertThatThrownBy(() -> ServerConfig.loopback(0).withGrpcPublicAddress("http://localhost:41242/"))
                .hasMessageContaining("GRPC_PUBLIC_ADDRESS must be host:port");
        assertThatThrownBy(() -> ServerConfig.loopback(0).withGrpcPort(70000)).hasMessageContaining("GRPC_PORT");
    }
}
