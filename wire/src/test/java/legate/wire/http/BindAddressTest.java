package legate.wire.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * The URL a client dials for a bind address: what the agent, the tap and the MCP endpoint print
 * and what a default public URL says.
 */
class BindAddressTest {

    @Test
    void aNamedOrLiteralAddressIsDialedAsItIs() {
        assertThat(BindAddress.dialableUrl("127.0.0.1", 41241, "/")).isEqualTo("http://127.0.0.1:41241/");
        assertThat(BindAddress.dialableUrl("box.lan", 8080, "/a2a")).isEqualTo("http://box.lan:8080/a2a");
    }

    @Test
    void aWildcardBindIsDialedAtLoopback() {
        // A wildcard names every interface and none a client could dial; loopback reaches it from this machine.
        assertThat(BindAddress.dialableUrl("0.0.0.0", 1, "/mcp")).isEqualTo("http://127.0.0.1:1/mcp");
        assertThat(BindAddress.dialableUrl("::", 2, "/")).isEqualTo("http://127.0.0.1:2/");
        assertThat(BindAddress.dialableUrl("[::]", 3, "/")).isEqualTo("http://127.0.0.1:3/");
    }

    @Test
    void anIpv6LiteralIsBracketedOnceSoTheUrlParses() {
        // RFC 3986 §3.2.2: an IPv6 literal in a URL is enclosed in brackets, or its colons read as a port.
        String url = BindAddress.dialableUrl("::1", 41243, "/mcp");
        assertThat(url).isEqualTo("http://[::1]:41243/mcp");
        assertThat(URI.create(url).getPort()).isEqualTo(41243);
        assertThat(BindAddress.dialableUrl("[fe80::1]", 5, "/")).isEqualTo("http://[fe80::1]:5/");
    }
}
