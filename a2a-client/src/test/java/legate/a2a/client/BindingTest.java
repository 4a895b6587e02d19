package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import org.junit.jupiter.api.Test;

/**
 * How the client picks a card's interface (README "Protocol bindings"). PROTOCOL (A2A §8.3.2): the
 * card lists its interfaces by preference and the client dials the first it speaks; --binding only
 * narrows what it speaks, it never reorders the card.
 */
class BindingTest {
    private static AgentInterface offer(String binding, String version, String url) {
        return AgentInterface.newBuilder().setProtocolBinding(binding).setProtocolVersion(version).setUrl(url).build();
    }

    private static final AgentCard CARD = AgentCard.newBuilder().setName("a")
            .addSupportedInterfaces(offer("GRPC", "1.0", "h:1"))
            .addSupportedInterfaces(offer("JSONRPC", "0.3", "http://h/v0.3/"))
            .addSupportedInterfaces(offer("HTTP+JSON", "1.0", "http://h/rest"))
            .addSupportedInterfaces(offer("JSONRPC", "1.0", "http://h/"))
            .build();

    @Test
    void theFirstInterfaceOfTheCardThatTheClientSpeaksWins() {
        assertThat(Binding.choose(CARD, List.of(Binding.JSONRPC_1_0, Binding.HTTP_JSON_1_0)).getUrl())
                .isEqualTo("http://h/rest");
        assertThat(Binding.choose(CARD, List.of(Binding.JSONRPC_1_0)).getUrl()).isEqualTo("http://h/");
    }

    @Test
    void aUserNamesABindingInAnyCaseAndAnUnknownNameIsRefusedWithTheNames() {
        assertThat(Binding.named(" jsonrpc")).isEqualTo(Binding.JSONRPC_1_0);
        assertThatThrownBy(() -> Binding.named("SOAP")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"SOAP\"").hasMessageContaining("JSONRPC");
    }

    // Only bindings with a transport may be configured, so a client never dials what it cannot speak.
    @Test
    void theDefaultsAreEveryImplementedBindingJsonRpcFirst() {
        assertThat(ClientConfig.defaults().bindings()).isEqualTo(Binding.implemented()).startsWith(Binding.JSONRPC_1_0);
        assertThatThrownBy(() -> ClientConfig.defaults().withBindings(List.of(new Binding("SOAP", "1.0"))))
                .hasMessageContaining("no transport for SOAP 1.0");
    }
}
