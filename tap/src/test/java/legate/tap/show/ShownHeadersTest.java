package legate.tap.show;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import legate.tap.show.ExchangeEvent.Header;
import org.junit.jupiter.api.Test;

/** Which headers an exchange event carries, and that a credential among them is masked whatever its case. */
class ShownHeadersTest {
    private static List<Header> shown(ShownHeaders headers, String name, String value) {
        List<Header> out = new ArrayList<>();
        headers.collect(name, value, out);
        return out;
    }

    @Test
    void proxyAuthorizationIsMaskedLikeAuthorization() {
        assertThat(shown(ShownHeaders.A2A, "proxy-authorization", "Basic cHJveHl1c2VyOnByb3h5cGFzc3dvcmQ="))
                .containsExactly(new Header("proxy-authorization", "Basic …cmQ="));
    }

    @Test
    void theApiKeyHeaderIsXApiKeyUnlessConfigured() {
        String key = "lk_live_5f2c9a7e41b0d8K3Y9";
        assertThat(shown(ShownHeaders.A2A, "x-api-key", key)).containsExactly(new Header("x-api-key", "…K3Y9"));
        assertThat(shown(ShownHeaders.A2A, "x-team-key", key)).isEmpty();
        assertThat(shown(ShownHeaders.A2A.withApiKeyHeader("X-Team-Key"), "x-team-key", key)).containsExactly(new Header("x-team-key", "…K3Y9"));
    }

    @Test
    void setCookieShowsItsNameWithoutItsValueOrAttributes() {
        assertThat(shown(ShownHeaders.A2A, "Set-Cookie", "sid=0123456789abcdefWXYZ; Path=/; HttpOnly"))
                .containsExactly(new Header("Set-Cookie", "sid=…WXYZ"));
    }

    @Test
    void otherHeadersAreShownAsTheyAreOrNotAtAll() {
        assertThat(shown(ShownHeaders.A2A, "A2A-Version", "1.0")).containsExactly(new Header("A2A-Version", "1.0"));
        assertThat(shown(ShownHeaders.A2A, "User-Agent", "curl")).isEmpty();
        assertThat(shown(ShownHeaders.ALL, "User-Agent", "curl")).containsExactly(new Header("User-Agent", "curl"));
    }

    // Rule: the web page's raw view carries every header, and a credential among them still only masked.
    @Test
    void allHeadersStillMaskACredential() {
        assertThat(shown(ShownHeaders.ALL.withApiKeyHeader("X-Team-Key"), "X-Team-Key", "lk_live_5f2c9a7e41b0d8K3Y9"))
                .containsExactly(new Header("X-Team-Key", "…K3Y9"));
    }
}
