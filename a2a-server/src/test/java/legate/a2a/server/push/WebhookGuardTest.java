package legate.a2a.server.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SSRF rules (README "Push notifications"; PROTOCOL A2A §13.2): every spelling of an address
 * that leads back into the agent's machine or network is refused, naming the rule, unless its host
 * is in PUSH_ALLOW_HOSTS. Address literals go through the system resolver, as in production; names
 * through a fixed table, so that no test depends on a DNS server.
 */
class WebhookGuardTest {
    private static final Map<String, String[]> NAMES = Map.of(
            "hooks.example.com", new String[] {"93.184.216.34"},
            "localhost.example.com", new String[] {"127.0.0.1"},
            "split.example.com", new String[] {"93.184.216.34", "10.1.2.3"},
            "metadata.example.com", new String[] {"169.254.169.254"});

    private static final HostResolver TABLE = host -> {
        String[] addresses = NAMES.get(host);
        if (addresses == null) {
            return HostResolver.SYSTEM.resolve(host);
        }
        InetAddress[] out = new InetAddress[addresses.length];
        for (int i = 0; i < addresses.length; i++) {
            out[i] = InetAddress.getByName(addresses[i]);
        }
        return List.of(out);
    };

    private static WebhookGuard guard(String allowed) {
        return new WebhookGuard(AllowedHosts.parse(allowed), TABLE);
    }

    private static String refusal(WebhookGuard guard, String url) {
        try {
            guard.check(url);
            return "accepted";
        } catch (WebhookRefused e) {
            return e.rule();
        }
    }

    @Test
    void anHttpsUrlOnAPublicAddressPasses() throws Exception {
        assertThat(guard("").check("https://hooks.example.com/a2a?x=1").getHost()).isEqualTo("hooks.example.com");
        assertThat(guard("").check("https://93.184.216.34:8443/").getPort()).isEqualTo(8443);
        // Global unicast IPv6 next to the ranges refused below.
        assertThat(guard("").check("https://[2001:4860:4860::8888]/").getHost()).isEqualTo("[2001:4860:4860::8888]");
        assertThat(guard("").check("https://[2001:200::1]/").getHost()).isEqualTo("[2001:200::1]");
        assertThat(guard("").check("https://[3ffe::1]/").getHost()).isEqualTo("[3ffe::1]");
        // A scheme is case-insensitive (RFC 3986 §3.1).
        assertThat(guard("").check("httPs://93.184.216.34/").getScheme()).isEqualTo("httPs");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "https://127.0.0.1/", "https://127.9.9.9/", "https://localhost.example.com/", "https://[::1]/",
            "https://10.0.0.5/", "https://172.16.0.1/", "https://172.31.255.255/", "https://192.168.1.1/",
            "https://100.64.0.1/", "https://[fc00::1]/", "https://[fd12:3456::1]/", "https://[fec0::1]/",
            "https://169.254.169.254/", "https://metadata.example.com/latest/", "https://[fe80::1]/",
            "https://224.0.0.1/", "https://[ff02::1]/", "https://0.0.0.0/", "https://[::]/", "https://255.255.255.255/",
            // IPv4 inside IPv6: mapped (two spellings), the old compatible form, NAT64 and 6to4.
            "https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/", "https://[::ffff:10.0.0.1]/",
            "https://[0:0:0:0:0:ffff:a9fe:a9fe]/", "https://[::127.0.0.1]/", "https://[64:ff9b::a9fe:a9fe]/",
            "https://[2002:7f00:1::]/", "https://[2002:c0a8:101::1]/",
            // IPv6 outside global unicast (2000::/3), IETF protocol assignments and documentation
            // (fe00::1 passed before: a WebhookGuardFuzzTest finding, docs/fuzzing.md).
            "https://[fe00::1]/", "https://[100::1]/", "https://[4000::1]/", "https://[::2:1:0:1]/",
            "https://[2001::1]/", "https://[2001:1ff::1]/", "https://[3fff::1]/", "https://[2001:db8::1]/",
            // Every address of a name is checked, not only the first.
            "https://split.example.com/"})
    void anAddressIntoTheAgentsOwnNetworkIsRefused(String url) {
        assertThat(refusal(guard(""), url)).isEqualTo("public address");
    }

    @Test
    void anIpv4MappedAddressAsAResolverReturnsItIsJudgedByItsIpv4() throws Exception {
        // The JDK turns a mapped literal into an Inet4Address; a resolver may hand back the IPv6 form.
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 127, 0, 0, 1};
        InetAddress v6 = Inet6Address.getByAddress("mapped.example.com", mapped, -1);
        assertThat(v6).isInstanceOf(Inet6Address.class);
        WebhookGuard guard = new WebhookGuard(AllowedHosts.NONE, host -> List.of(v6));
        assertThat(refusal(guard, "https://mapped.example.com/")).isEqualTo("public address");
    }

    @Test
    void theRefusalNamesTheRuleTheAddressAndTheWayOut() {
        assertThatThrownBy(() -> guard("").check("https://metadata.example.com/"))
                .isInstanceOf(WebhookRefused.class)
                .hasMessageContaining("\"public address\"").hasMessageContaining("169.254.169.254")
                .hasMessageContaining("link-local").hasMessageContaining("PUSH_ALLOW_HOSTS");
    }

    @Test
    void plainHttpOnlyForAListedHostAndPort() {
        assertThat(refusal(guard(""), "http://hooks.example.com/")).isEqualTo("https");
        assertThat(refusal(guard("127.0.0.1:8080"), "http://127.0.0.1:8080/")).isEqualTo("accepted");
        assertThat(refusal(guard("127.0.0.1:8080"), "http://127.0.0.1:8081/")).isEqualTo("https");
        assertThat(refusal(guard("127.0.0.1:8080"), "https://127.0.0.1:8081/")).isEqualTo("public address");
        assertThat(refusal(guard("Hooks.Internal"), "http://hooks.internal:9/")).isEqualTo("accepted");
        assertThat(refusal(guard("[::1]:7000, 10.0.0.5"), "http://[::1]:7000/")).isEqualTo("accepted");
        assertThat(refusal(guard("[::1]:7000, 10.0.0.5"), "https://10.0.0.5/")).isEqualTo("accepted");
        // Listing a name allows that name, not every name that resolves to the same address.
        assertThat(refusal(guard("127.0.0.1"), "https://localhost.example.com/")).isEqualTo("public address");
    }

    @Test
    void credentialsInTheUrlAreRefused() {
        assertThat(refusal(guard(""), "https://user:secret@hooks.example.com/")).isEqualTo("no credentials");
        assertThat(refusal(guard("127.0.0.1"), "http://user@127.0.0.1/")).isEqualTo("no credentials");
    }

    @Test
    void whatIsNotAnAbsoluteHttpUrlIsRefused() {
        assertThat(refusal(guard(""), "ftp://hooks.example.com/")).isEqualTo("absolute URL");
        assertThat(refusal(guard(""), "/relative")).isEqualTo("absolute URL");
        assertThat(refusal(guard(""), "file:///etc/passwd")).isEqualTo("absolute URL");
        assertThat(refusal(guard(""), "https://exa mple.com/")).isEqualTo("absolute URL");
        assertThat(refusal(new WebhookGuard(AllowedHosts.NONE, host -> {
            throw new UnknownHostException(host);
        }), "https://nowhere.example.com/")).isEqualTo("public address");
    }

    @Test
    void anAllowListEntryThatIsNotAHostIsRefusedAtStart() {
        assertThatThrownBy(() -> AllowedHosts.parse("127.0.0.1:99999")).hasMessageContaining("port");
        assertThatThrownBy(() -> AllowedHosts.parse("http://x/")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AllowedHosts.parse("[::1")).hasMessageContaining("bracket");
    }
}
