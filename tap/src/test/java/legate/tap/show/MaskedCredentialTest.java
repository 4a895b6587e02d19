package legate.tap.show;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A masked credential tells which one was sent and gives away at most its last four characters. */
class MaskedCredentialTest {
    @Test
    void theSchemeStaysAndTheSecretKeepsItsLastFour() {
        assertThat(MaskedCredential.schemeAndSecret("Bearer abcdefghijklmnop1234")).isEqualTo("Bearer …1234");
        assertThat(MaskedCredential.schemeAndSecret("  Basic   dXNlcjpwYXNzd29yZA==  ")).isEqualTo("Basic …ZA==");
    }

    @Test
    void aValueWithoutSchemeIsOneSecret() {
        assertThat(MaskedCredential.schemeAndSecret("abcdefghijklmnop1234")).isEqualTo("…1234");
    }

    /** Four characters of an eight-character secret would be half of it: none are shown. */
    @Test
    void aShortSecretShowsOnlyItsLength() {
        assertThat(MaskedCredential.secret("hunter22")).isEqualTo("…(8 chars)");
        assertThat(MaskedCredential.schemeAndSecret("Bearer short")).isEqualTo("Bearer …(5 chars)");
    }

    @Test
    void cookiesKeepTheirNames() {
        assertThat(MaskedCredential.cookies("a=0123456789abcdefWXYZ; b=x;c")).isEqualTo("a=…WXYZ; b=…(1 chars); …(1 chars)");
    }
}
