package legate.a2a.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzes the reading of the callers' tokens file (A2A_TOKENS_FILE) with any content, written to a
 * real file (docs/fuzzing.md). Properties: a file that cannot be used costs an
 * {@link IllegalArgumentException} naming the line (its documented failure: the server does not
 * start and says why), never another exception; and that message holds no secret of the file.
 */
class TokensFileFuzzTest {
    private static Path file;

    @FuzzTest(maxDuration = "60s")
    void anyFileIsReadOrRefusedWithoutItsSecrets(byte[] content) throws IOException {
        Files.write(file(), content);
        try {
            new TokensFile(file());
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
            for (String line : new String(content, StandardCharsets.UTF_8).split("\\R")) {
                int colon = line.indexOf(':');
                String secret = colon < 0 ? "" : line.substring(colon + 1).strip();
                // Short secrets occur by chance in any message; one this long does not.
                if (secret.length() >= 12) {
                    assertThat(e.getMessage()).doesNotContain(secret);
                }
            }
        }
    }

    private static Path file() {
        if (file == null) {
            try {
                file = Files.createTempFile("legate-tokens-fuzz", ".txt");
                file.toFile().deleteOnExit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return file;
    }
}
