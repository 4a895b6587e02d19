package legate.mcp.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The DNS-rebinding rule (MCP Streamable HTTP, security warning): which Host and Origin values an
 * endpoint answers to. The interop test checks the 403 on the wire.
 */
class HostGuardTest {
    @Test
    void aLoopbackBindAnswersOnlyToLoopbackNamesWithAnyPort() {
        HostGuard guard = new HostGuard("127.0.0.1", List.of("example.com"));

        assertThat(guard.allowsHost("127.0.0.1:41243")).isTrue();
        assertThat(guard.allowsHost("localhost")).isTrue();
        assertThat(guard.allowsHost("LOCALHOST:1")).isTrue();
        assertThat(guard.allowsHost("[::1]:41243")).isTrue();
        assertThat(guard.allowsHost("example.com")).as("the allowed list is for wide binds only").isFalse();
        assertThat(guard.allowsHost("localhost.evil.example")).isFalse();
        assertThat(guard.allowsHost("127.0.0.1.nip.io:41243")).isFalse();
        assertThat(guard.allowsHost(null)).isFalse();
    }

    @Test
    void aWideBindAnswersToLoopbackAndToWhatIsListed() {
        HostGuard guard = new HostGuard("0.0.0.0", List.of("box.lan", "gw.lan:8443"));

        assertThat(guard.allowsHost("box.lan:41243")).isTrue();
        assertThat(guard.allowsHost("gw.lan:8443")).isTrue();
        assertThat(guard.allowsHost("gw.lan:9999")).as("a listed port is that port only").isFalse();
        assertThat(guard.allowsHost("localhost:41243")).isTrue();
        assertThat(guard.allowsHost("evil.example")).isFalse();
    }

    @Test
    void anOriginMustNameAnAllowedHostWhenThereIsOne() {
        HostGuard guard = new HostGuard("127.0.0.1", List.of());

        assertThat(guard.allowsOrigin(null)).isTrue();
        assertThat(guard.allowsOrigin("http://localhost:6274")).isTrue();
        assertThat(guard.allowsOrigin("https://evil.example")).isFalse();
        assertThat(guard.allowsOrigin("null")).isFalse();
    }

    @Test
    void onlyLiteralLoopbackAddressesCountAsALoopbackBind() {
        assertThat(HostGuard.isLoopback("127.0.0.1")).isTrue();
        assertThat(HostGuard.isLoopback("::1")).isTrue();
        assertThat(HostGuard.isLoopback("[::1]")).isTrue();
        assertThat(HostGuard.isLoopback("localhost")).isTrue();
        assertThat(HostGuard.isLoopback("0.0.0.0")).isFalse();
        assertThat(HostGuard.isLoopback("192.168.1.10")).isFalse();
    }
}
