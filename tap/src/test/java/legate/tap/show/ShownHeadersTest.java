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
        assertThat(shown(new ShownHeaders(null), "proxy-authorization", "Basic cHJveHl1c2VyOnByb3h5cGFzc3dvcmQ="))
                .containsExactly(new Header("proxy-authorization", "Basic …cmQ="));
    }

    @Test
    void theApiKeyHeaderIsXApiKeyUnlessConfigured() {
        String key = "lk_live_5f2c9a7e41b0d8K3Y9";
        assertThat(shown(new ShownHeaders(null), "x-api-key", key)).containsExactly(new Header("x-api-key", "…K3Y9"));
        assertThat(shown(new ShownHeaders("X-Team-Key"), "X-API-Key", key)).isEmpty();
        assertThat(shown(new ShownHeaders("X-Team-Key"), "x-team-key", key)).containsExactly(new Header("x-team-key", "…K3Y9"));
    }

    @Test
    void setCookieShowsItsNameWithoutItsValueOrAttributes() {
        assertThat(shown(new ShownHeaders(null), "Set-Cookie", "sid=0123456789abcdefWXYZ; Path=/; HttpOnly"))
                .containsExactly(new Header("Set-Cookie", "sid=…WXYZ"));
    }

    @Test
    void otherHeadersAreShownAsTheyAreOrNotAtAll() {
        assertThat(shown(new ShownHeaders(null), "A2A-Version", "1.0")).containsExactly(new Header("A2A-Version", "1.0"));
        assertThat(shown(new ShownHeaders(null), "User-Agent", "curl")).isEmpty();
    }
}
