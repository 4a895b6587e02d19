package legate.mcp.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import legate.mcp.McpConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bearer token: minted unguessable, kept out of logs, written for its owner only. */
class BearerTokenTest {
    @Test
    void mintedTokensAre256RandomBitsAndDiffer() {
        SecureRandom random = new SecureRandom();
        BearerToken a = BearerToken.mint(random);
        BearerToken b = BearerToken.mint(random);

        assertThat(a.value()).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void onlyTheExactTokenMatches() {
        BearerToken token = new BearerToken("s3cret-token");

        assertThat(token.matches("s3cret-token")).isTrue();
        assertThat(token.matches("s3cret-tokeN")).isFalse();
        assertThat(token.matches("s3cret-token ")).isFalse();
        assertThat(token.matches("")).isFalse();
        assertThat(token.matches(null)).isFalse();
    }

    // A logged config must not leak the secret.
    @Test
    void theTokenIsNotPrinted() {
        BearerToken token = new BearerToken("s3cret-token");

        assertThat(token.toString()).doesNotContain("s3cret");
        assertThat(McpConfig.loopback(0, token, java.util.Map.of("a", java.net.URI.create("http://127.0.0.1:1/"))).toString())
                .doesNotContain("s3cret");
    }

    @Test
    void theTokenFileIsReadableByItsOwnerOnlyEvenWhenAWiderOneExisted(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(".mcp-token");
        Files.writeString(file, "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        new BearerToken("s3cret-token").writeTo(file);

        assertThat(Files.readString(file)).isEqualTo("s3cret-token\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void theBearerSchemeIsReadCaseInsensitively() {
        assertThat(BearerGuard.bearerOf("Bearer abc")).isEqualTo("abc");
        assertThat(BearerGuard.bearerOf("bearer   abc ")).isEqualTo("abc");
        assertThat(BearerGuard.bearerOf("Basic abc")).isNull();
        assertThat(BearerGuard.bearerOf("Bearerabc")).isNull();
        assertThat(BearerGuard.bearerOf("Bearer ")).isNull();
    }
}
