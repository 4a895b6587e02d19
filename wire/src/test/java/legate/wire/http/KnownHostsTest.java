package legate.wire.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The names a listener answers to: the DNS-rebinding defence every Legate listener shares (README "Security"). */
class KnownHostsTest {
    // DEFECT (issue 30, 3): a page that pointed its own name at 127.0.0.1 ran tasks on a loopback agent.
    @Test
    void aLoopbackBindAnswersLoopbackNamesOnlyWithAnyPort() {
        KnownHosts hosts = KnownHosts.forBind("127.0.0.1", List.of());

        assertThat(hosts.allows("127.0.0.1:41241")).isTrue();
        assertThat(hosts.allows("LOCALHOST:1")).isTrue();
        assertThat(hosts.allows("localhost")).isTrue();
        assertThat(hosts.allows("[::1]:41241")).isTrue();
        assertThat(hosts.allows("[0:0:0:0:0:0:0:1]:41241")).as("the same address written long").isTrue();
        assertThat(hosts.allows("rebind.attacker.example:41241")).isFalse();
        assertThat(hosts.allows("localhost.attacker.example")).isFalse();
        assertThat(hosts.allows("127.0.0.2")).isFalse();
        assertThat(hosts.allows(null)).isFalse();
        assertThat(hosts.allows(" ")).isFalse();
    }

    @Test
    void configuredNamesAreAnsweredAnyPortOrTheirPortOnly() {
        KnownHosts hosts = KnownHosts.forBind("127.0.0.1", List.of("agent.example.com", "Proxy.Example:8443"));

        assertThat(hosts.allows("agent.example.com:41241")).isTrue();
        assertThat(hosts.allows("AGENT.example.com")).isTrue();
        assertThat(hosts.allows("proxy.example:8443")).isTrue();
        assertThat(hosts.allows("proxy.example:8444")).isFalse();
        assertThat(hosts.allows("other.example")).isFalse();
    }

    @Test
    void aSpecificBindAddressIsKnownByItself() {
        KnownHosts hosts = KnownHosts.forBind("192.0.2.7", List.of());

        assertThat(hosts.allows("192.0.2.7:41241")).isTrue();
        assertThat(hosts.allows("192.0.2.8:41241")).isFalse();
        assertThat(KnownHosts.forBind("fe80::1", List.of()).allows("[fe80:0:0:0:0:0:0:1]:80")).isTrue();
    }

    @Test
    void aWildcardBindAnswersTheLiteralsOfThisMachinesInterfacesButNoName() {
        KnownHosts hosts = KnownHosts.forBind("0.0.0.0", List.of());

        assertThat(hosts.allows("127.0.0.1:41241")).isTrue();
        assertThat(hosts.allows("rebind.attacker.example")).isFalse();
        assertThat(hosts.allows("0.0.0.0")).as("no one dials the wildcard itself").isFalse();
    }

    // A Host header is the caller's: reading it must never cost a DNS lookup on the request's thread.
    // InetAddress.getByName("999.1.1.1") is one (the string is no address, so the JDK takes it for a
    // name), and a Host of that shape cost one per request before the dotted quad was parsed by hand.
    @Test
    void aHostThatLooksLikeAnAddressButIsNoneIsRefusedWithoutALookup() {
        KnownHosts hosts = KnownHosts.forBind("127.0.0.1", List.of("agent.example.com"));
        List<String> odd = List.of("999.1.1.1", "127.0.0.256:80", "[999.1.1.1]", "1.2.3.4444", "127.000.0.1",
                "[::1:zz]", "127.0.0.1:80:81");

        List<String> allowed = odd.stream().filter(hosts::allows).toList();
        boolean wideBind = KnownHosts.isLoopback("999.0.0.1");
        boolean rebind = hosts.allows("rebind.attacker.example");

        assertThat(CountingResolver.LOOKED_UP).as("names looked up in DNS").doesNotContain("999.1.1.1", "127.0.0.256",
                "1.2.3.4444", "127.000.0.1", "999.0.0.1", "rebind.attacker.example");
        // 127.000.0.1 too: a leading zero is ambiguous (octal to some parsers), and no browser sends one.
        assertThat(allowed).isEmpty();
        assertThat(wideBind).isFalse();
        assertThat(rebind).isFalse();
    }

    @Test
    void aStarTurnsTheCheckOff() {
        assertThat(KnownHosts.forBind("127.0.0.1", List.of("a.example", "*")).allows("anything.example")).isTrue();
        assertThat(KnownHosts.forBind("127.0.0.1", List.of("*")).anyHost()).isTrue();
    }

    @Test
    void aListKeepsAuthoritiesOfPastedUrlsAndDropsBlanks() {
        assertThat(KnownHosts.parseList(" a.example , https://b.example:8443/path/,, ")).containsExactly("a.example",
                "b.example:8443");
        assertThat(KnownHosts.parseList(null)).isEmpty();
        assertThat(KnownHosts.nameOf("[::1]:80")).isEqualTo("[::1]");
        assertThat(KnownHosts.nameOf("a.example:80")).isEqualTo("a.example");
        assertThat(KnownHosts.isLoopback("::1")).isTrue();
        assertThat(KnownHosts.isLoopback("0.0.0.0")).isFalse();
    }
}
