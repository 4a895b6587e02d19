package legate.a2a.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Fuzzes the webhook URL guard with any URL a caller can register (A2A §13.2; docs/fuzzing.md).
 * Properties: a URL it will not call costs a {@link WebhookRefused} naming the rule (its documented
 * failure, which the caller gets as -32602), never another exception; and a URL it passes is one
 * the delivery can address (the JDK client's request builder takes it), so no accepted
 * configuration fails every delivery with an exception instead of a recorded failure.
 */
class WebhookGuardFuzzTest {
    private static final AllowedHosts ALLOWED = AllowedHosts.parse("receiver.test,127.0.0.1:8443,[::1]");
    // No DNS in a fuzz test: an address literal is itself, any name resolves to one public address,
    // except names under .private, which resolve to a private one.
    private static final HostResolver RESOLVER = host -> {
        if (host.endsWith(".private")) {
            return List.of(InetAddress.getByAddress(host, new byte[] {10, 0, 0, 1}));
        }
        if (!host.isEmpty() && host.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')
                && host.chars().allMatch(c -> c < 0x80) && (host.indexOf(':') >= 0 || isDottedQuad(host))) {
            return List.of(InetAddress.getByName(host));
        }
        if (host.indexOf('%') >= 0) {
            throw new UnknownHostException(host);
        }
        return List.of(InetAddress.getByAddress(host, new byte[] {93, (byte) 184, (byte) 215, 14}));
    };

    @FuzzTest(maxDuration = "60s")
    void anyUrlIsPassedOrRefusedByARule(byte[] input) {
        String url = new String(input, StandardCharsets.UTF_8);
        URI accepted;
        try {
            accepted = new WebhookGuard(ALLOWED, RESOLVER).check(url);
        } catch (WebhookRefused e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        // A scheme is case-insensitive (RFC 3986 §3.1): "httPs" was this test's first finding.
        assertThat(accepted.getScheme().toLowerCase(Locale.ROOT)).isIn("http", "https");
        HttpRequest.newBuilder(accepted);
    }

    private static boolean isDottedQuad(String host) {
        return host.chars().allMatch(c -> (c >= '0' && c <= '9') || c == '.') && host.split("\\.", -1).length == 4;
    }
}
