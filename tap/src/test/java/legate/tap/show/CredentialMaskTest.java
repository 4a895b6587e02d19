package legate.tap.show;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one masking rule for credentials the tap shows: the scheme and the last 4 characters. */
class CredentialMaskTest {
    // Rule: a bearer token shows its scheme and last 4 characters, nothing else of it.
    @Test
    void aBearerTokenShowsItsSchemeAndLastFour() {
        assertThat(CredentialMask.shown("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig-WXYZ"))
                .isEqualTo("Bearer …WXYZ");
        assertThat(CredentialMask.shown("proxy-authorization", "Basic dXNlcjpwYXNzd29yZC0xMjM0"))
                .isEqualTo("Basic …MjM0");
    }

    // Rule: a secret too short for its last 4 to be safe shows none of it; a value without a scheme is masked whole.
    @Test
    void aShortSecretOrOneWithoutASchemeShowsNoMoreThanTheRule() {
        assertThat(CredentialMask.shown("Authorization", "Bearer abc123")).isEqualTo("Bearer …");
        assertThat(CredentialMask.shown("Authorization", "sk-live-0123456789abcd")).isEqualTo("…abcd");
    }

    // Rule: API keys and cookies are credentials too; a cookie keeps its name.
    @Test
    void apiKeysAndCookiesAreMasked() {
        assertThat(CredentialMask.shown("X-API-Key", "key-0123456789-ABCD")).isEqualTo("…ABCD");
        assertThat(CredentialMask.shown("Cookie", "session=0123456789abcdef-9876; theme=dark"))
                .isEqualTo("session=…9876; theme=…");
        assertThat(CredentialMask.isCredential("x-api-key")).isTrue();
        assertThat(CredentialMask.isCredential("Content-Type")).isFalse();
        assertThat(CredentialMask.shown("Content-Type", "application/json")).isEqualTo("application/json");
    }
}
