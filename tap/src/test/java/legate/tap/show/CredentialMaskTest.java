package legate.tap.show;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one masking rule for credentials the tap shows: the scheme and the last 4 characters, never the secret. */
class CredentialMaskTest {
    private static final CredentialMask MASK = CredentialMask.DEFAULT;

    // Rule: a bearer token shows its scheme and last 4 characters, nothing else of it.
    @Test
    void aBearerTokenShowsItsSchemeAndLastFour() {
        assertThat(MASK.shown("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig-WXYZ"))
                .isEqualTo("Bearer …WXYZ");
        assertThat(MASK.shown("proxy-authorization", "Basic dXNlcjpwYXNzd29yZC0xMjM0"))
                .isEqualTo("Basic …MjM0");
        assertThat(MASK.shown("Authorization", "  Basic   dXNlcjpwYXNzd29yZA==  ")).isEqualTo("Basic …ZA==");
    }

    // Rule: a secret too short for its last 4 to be safe shows none of it; a value without a scheme is masked whole.
    @Test
    void aShortSecretOrOneWithoutASchemeShowsNoMoreThanTheRule() {
        assertThat(MASK.shown("Authorization", "Bearer abc123")).isEqualTo("Bearer …");
        assertThat(MASK.shown("X-API-Key", "hunter22")).isEqualTo("…");
        assertThat(MASK.shown("Authorization", "sk-live-0123456789abcd")).isEqualTo("…abcd");
    }

    // Rule: only a token (RFC 9110 §11.1) before the space is a scheme; anything else is all secret.
    @Test
    void aFirstWordThatIsNoTokenIsPartOfTheSecret() {
        assertThat(MASK.shown("Authorization", "sk/live 0123456789abcdWXYZ")).isEqualTo("…WXYZ");
    }

    // Rule: API keys and cookies are credentials too; a cookie keeps its name.
    @Test
    void apiKeysAndCookiesAreMasked() {
        assertThat(MASK.shown("X-API-Key", "key-0123456789-ABCD")).isEqualTo("…ABCD");
        assertThat(MASK.shown("Cookie", "session=0123456789abcdef-9876; theme=dark"))
                .isEqualTo("session=…9876; theme=…");
        assertThat(MASK.shown("Cookie", "a=0123456789abcdefWXYZ; b=x;c")).isEqualTo("a=…WXYZ; b=…; …");
        assertThat(MASK.isCredential("x-api-key")).isTrue();
        assertThat(MASK.isCredential("Content-Type")).isFalse();
        assertThat(MASK.shown("Content-Type", "application/json")).isEqualTo("application/json");
    }

    // Rule: A2A_API_KEY_HEADER names the header masked as an API key; X-API-Key stays masked beside it.
    @Test
    void aConfiguredApiKeyHeaderIsMaskedBesideTheDefault() {
        CredentialMask team = new CredentialMask("X-Team-Key");
        assertThat(team.shown("x-team-key", "lk_live_5f2c9a7e41b0d8K3Y9")).isEqualTo("…K3Y9");
        assertThat(team.shown("X-API-Key", "lk_live_5f2c9a7e41b0d8K3Y9")).isEqualTo("…K3Y9");
        assertThat(MASK.isCredential("X-Team-Key")).isFalse();
    }
}
