package legate.acp.permission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fs/read_text_file and fs/write_text_file as the agent sees them: served inside the root, refused outside. */
class FileSystemAccessTest {

    @TempDir
    Path tmp;

    Path rootDir;
    Path outside;
    FileSystemAccess fs;

    @BeforeEach
    void layout() throws IOException {
        Path base = tmp.toRealPath();
        rootDir = Files.createDirectory(base.resolve("root"));
        outside = Files.createDirectory(base.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.writeString(rootDir.resolve("five.txt"), "one\ntwo\nthree\nfour\nfive\n");
        fs = new FileSystemAccess(SessionRoot.given(rootDir));
    }

    @Test
    void readsAWholeFileByAbsoluteOrRelativePath() throws Exception {
        assertThat(fs.readTextFile(rootDir.resolve("five.txt").toString(), null, null))
                .isEqualTo("one\ntwo\nthree\nfour\nfive\n");
        assertThat(fs.readTextFile("five.txt", null, null)).isEqualTo("one\ntwo\nthree\nfour\nfive\n");
    }

    @Test
    void lineIsTheOneBasedStartAndLimitTheNumberOfLines() throws Exception {
        // PROTOCOL (ACP fs/read_text_file): line is 1-based, limit counts lines.
        assertThat(fs.readTextFile("five.txt", 2, 2)).isEqualTo("two\nthree\n");
        assertThat(fs.readTextFile("five.txt", 1, 1)).isEqualTo("one\n");
        assertThat(fs.readTextFile("five.txt", 4, null)).isEqualTo("four\nfive\n");
        assertThat(fs.readTextFile("five.txt", null, 2)).isEqualTo("one\ntwo\n");
        assertThat(fs.readTextFile("five.txt", 5, 10)).isEqualTo("five\n");
    }

    @Test
    void aWindowPastTheEndIsEmptyAndALastLineWithoutNewlineIsKept() throws Exception {
        Files.writeString(rootDir.resolve("crlf.txt"), "a\r\nb\r\nc");
        assertThat(fs.readTextFile("five.txt", 6, null)).isEmpty();
        assertThat(fs.readTextFile("five.txt", 2, 0)).isEmpty();
        assertThat(fs.readTextFile("crlf.txt", 2, 5)).isEqualTo("b\r\nc");
    }

    @Test
    void writeCreatesMissingParentsAndWritesUtf8() throws Exception {
        fs.writeTextFile("docs/new/notes.md", "Grüße — ✓\n");
        Path written = rootDir.resolve("docs/new/notes.md");
        assertThat(Files.readAllBytes(written)).isEqualTo("Grüße — ✓\n".getBytes(StandardCharsets.UTF_8));
        assertThat(fs.readTextFile("docs/new/notes.md", null, null)).isEqualTo("Grüße — ✓\n");
    }

    @Test
    void writeReplacesTheWholeFile() throws Exception {
        fs.writeTextFile("five.txt", "short");
        assertThat(Files.readString(rootDir.resolve("five.txt"))).isEqualTo("short");
    }

    @Test
    void readingOutsideTheRootIsAnErrorInEachSpelling() throws IOException {
        Files.createSymbolicLink(rootDir.resolve("escape"), outside);
        for (String path : new String[] {"../outside/secret.txt", "a/../../outside/secret.txt",
                outside.resolve("secret.txt").toString(), "escape/secret.txt"}) {
            assertThatThrownBy(() -> fs.readTextFile(path, null, null)).as(path)
                    .isInstanceOf(PathOutsideRoot.class).hasMessageContaining(path);
        }
    }

    @Test
    void writingOutsideTheRootIsAnErrorAndCreatesNothing() throws IOException {
        Files.createSymbolicLink(rootDir.resolve("escape"), outside);
        Files.createSymbolicLink(rootDir.resolve("dangling"), outside.resolve("made-by-write.txt"));
        for (String path : new String[] {"../outside/new.txt", "escape/new-dir/new.txt", "dangling",
                rootDir + "-evil/new.txt", "escape/secret.txt"}) {
            assertThatThrownBy(() -> fs.writeTextFile(path, "pwned")).as(path).isInstanceOf(PathOutsideRoot.class);
        }
        assertThat(outside.resolve("new.txt")).doesNotExist();
        assertThat(outside.resolve("new-dir")).doesNotExist();
        assertThat(outside.resolve("made-by-write.txt")).doesNotExist();
        assertThat(rootDir.resolveSibling("root-evil")).doesNotExist();
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("secret");
    }

    @Test
    void aLinkInsideThatPointsInsideIsServed() throws Exception {
        Files.createDirectory(rootDir.resolve("real"));
        Files.createSymbolicLink(rootDir.resolve("alias"), rootDir.resolve("real"));
        fs.writeTextFile("alias/through-link.txt", "ok");
        assertThat(rootDir.resolve("real/through-link.txt")).hasContent("ok");
    }

    @Test
    void aMissingFileIsAnIoErrorNotASilentEmptyString() {
        assertThatThrownBy(() -> fs.readTextFile("nope.txt", null, null)).isInstanceOf(IOException.class);
    }

    @Test
    void writingWithoutContentIsRejectedRatherThanEmptyingTheFile() throws IOException {
        assertThatThrownBy(() -> fs.writeTextFile("five.txt", null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.readString(rootDir.resolve("five.txt"))).startsWith("one");
    }
}
