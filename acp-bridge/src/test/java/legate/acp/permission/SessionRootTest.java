package legate.acp.permission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sandbox boundary: which paths resolve inside a session root. Every spelling that climbs out
 * must be refused, because an allowed edit or fs/write_text_file lands wherever the path resolves.
 */
class SessionRootTest {

    @TempDir
    Path tmp;

    Path rootDir;
    Path outside;
    SessionRoot root;

    @BeforeEach
    void layout() throws IOException {
        // tmp itself may sit behind a link (macOS /var -> /private/var): compare real paths only.
        Path base = tmp.toRealPath();
        rootDir = Files.createDirectory(base.resolve("root"));
        outside = Files.createDirectory(base.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.createDirectories(rootDir.resolve("src/main"));
        root = SessionRoot.given(rootDir);
    }

    @Test
    void createInMakesAFreshDirectoryUnderAMissingParentAndMarksItOurs() throws IOException {
        // Rule: sandboxes are created atomically under the configured parent, never named from input.
        Path parent = tmp.resolve("sandboxes/nested");
        SessionRoot first = SessionRoot.createIn(parent);
        SessionRoot second = SessionRoot.createIn(parent);
        assertThat(first.ours()).isTrue();
        assertThat(first.path()).isDirectory().isEqualTo(first.path().toRealPath());
        assertThat(first.path().getParent()).isEqualTo(parent.toRealPath());
        assertThat(first.path().getFileName().toString()).startsWith("ctx-");
        assertThat(second.path()).isNotEqualTo(first.path());
    }

    @Test
    void createInThroughASymlinkedParentGivesTheRealPath() throws IOException {
        // Rule: path() is the real path, or every containment check compares different spellings.
        Path link = Files.createSymbolicLink(tmp.resolve("sandboxes-link"), outside);
        SessionRoot created = SessionRoot.createIn(link);
        assertThat(created.path().getParent()).isEqualTo(outside);
    }

    @Test
    void aGivenDirectoryIsNotOursAndIsResolvedToItsRealPath() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("cwd-link"), rootDir);
        SessionRoot given = SessionRoot.given(link);
        assertThat(given.ours()).isFalse();
        assertThat(given.path()).isEqualTo(rootDir);
    }

    @Test
    void aGivenPathThatIsMissingOrAFileIsRejectedWithItsName() throws IOException {
        // Rule: ACP_CWD must name an existing directory (claude-agent-acp also rejects it later, less clearly).
        Path file = Files.writeString(tmp.resolve("file.txt"), "x");
        assertThatThrownBy(() -> SessionRoot.given(tmp.resolve("missing")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing").hasMessageContaining("does not exist");
        assertThatThrownBy(() -> SessionRoot.given(file))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a directory");
    }

    @Test
    void ordinaryPathsInsideAreContained() {
        assertThat(root.contains("src/main/App.java")).isTrue();
        assertThat(root.contains(rootDir.resolve("src/new/File.java").toString())).isTrue();
        assertThat(root.contains("a/../b.txt")).isTrue();
        assertThat(root.contains("./src/./main")).isTrue();
        assertThat(root.contains(".")).as("the root itself").isTrue();
    }

    @Test
    void aNameThatStartsWithTwoDotsIsAChildNotAClimb() {
        // Guards the naive check path.startsWith(".."), which would refuse this valid name.
        assertThat(root.contains("..notes")).isTrue();
        assertThat(root.contains("src/..hidden/x")).isTrue();
    }

    @Test
    void everySpellingThatClimbsOutIsOutside() {
        assertThat(root.contains("../outside/secret.txt")).isFalse();
        assertThat(root.contains("../x")).isFalse();
        assertThat(root.contains("a/../../x")).isFalse();
        assertThat(root.contains("src/main/../../../x")).isFalse();
        assertThat(root.contains(outside.resolve("secret.txt").toString())).isFalse();
        assertThat(root.contains("/")).isFalse();
        assertThat(root.contains(rootDir + "/../outside")).isFalse();
    }

    @Test
    void aSiblingWhoseNameExtendsTheRootsIsOutside() throws IOException {
        // Guards the naive check String.startsWith(root), which says yes to <root>-evil.
        Path evil = Files.createDirectory(rootDir.resolveSibling(rootDir.getFileName() + "-evil"));
        assertThat(root.contains(evil.resolve("x").toString())).isFalse();
        assertThat(root.contains(evil.toString())).isFalse();
        assertThat(root.contains("../root-evil/x")).isFalse();
    }

    @Test
    void aSymlinkInsidePointingOutsideIsOutside() throws IOException {
        Files.createSymbolicLink(rootDir.resolve("escape"), outside);
        Files.createSymbolicLink(rootDir.resolve("secret-link.txt"), outside.resolve("secret.txt"));
        assertThat(root.contains("escape")).isFalse();
        assertThat(root.contains("escape/secret.txt")).isFalse();
        assertThat(root.contains("secret-link.txt")).isFalse();
    }

    @Test
    void aNotYetExistingFileUnderASymlinkedDirectoryFollowsTheLink() throws IOException {
        // Rule: writing escape/new/file.txt creates it where escape points, so the check must follow escape.
        Files.createSymbolicLink(rootDir.resolve("escape"), outside);
        Files.createSymbolicLink(rootDir.resolve("inner"), rootDir.resolve("src"));
        assertThat(root.contains("escape/new/file.txt")).isFalse();
        assertThat(root.contains("inner/new/file.txt")).isTrue();
    }

    @Test
    void aDanglingSymlinkIsJudgedByWhereItWouldCreateItsTarget() throws IOException {
        // Rule: writing through a dangling link creates its target, outside if it points outside.
        Files.createSymbolicLink(rootDir.resolve("dangling-out"), outside.resolve("created-by-write.txt"));
        Files.createSymbolicLink(rootDir.resolve("dangling-in"), rootDir.resolve("later.txt"));
        assertThat(root.contains("dangling-out")).isFalse();
        assertThat(root.contains("dangling-in")).isTrue();
    }

    @Test
    void aSymlinkOutsidePointingInsideIsFineOnlyWhenItsTargetIsInside() throws IOException {
        Path toInside = Files.createSymbolicLink(outside.resolve("to-inside"), rootDir.resolve("src"));
        Path toOutside = Files.createSymbolicLink(outside.resolve("to-outside"), outside);
        assertThat(root.contains(toInside.resolve("main/App.java").toString())).isTrue();
        assertThat(root.contains(toInside.resolve("../../outside").toString())).isFalse();
        assertThat(root.contains(toOutside.resolve("secret.txt").toString())).isFalse();
    }

    @Test
    void dotDotAfterASymlinkClimbsFromItsTargetAsTheKernelDoes() throws IOException {
        // Lexical normalisation would turn escape/../src into src (inside); the kernel reaches outside/../src.
        Path deep = Files.createDirectories(outside.resolve("deep"));
        Files.createSymbolicLink(rootDir.resolve("escape"), deep);
        Files.createDirectory(outside.resolve("src"));
        assertThat(root.contains("escape/../src")).isFalse();
    }

    @Test
    void aMissingNameFollowedByDotDotStillFollowsLaterLinks() throws IOException {
        // Every name is checked: "missing/../escape/x" climbs back and then walks through the link.
        Files.createSymbolicLink(rootDir.resolve("escape"), outside);
        assertThat(root.contains("missing/../escape/x")).isFalse();
    }

    @Test
    void aSymlinkLoopIsRefusedNotFollowedForever() throws IOException {
        Files.createSymbolicLink(rootDir.resolve("loop-a"), rootDir.resolve("loop-b"));
        Files.createSymbolicLink(rootDir.resolve("loop-b"), rootDir.resolve("loop-a"));
        assertThatThrownBy(() -> root.resolve("loop-a/x"))
                .isInstanceOf(PathOutsideRoot.class).hasMessageContaining("symbolic links");
    }

    @Test
    void resolveGivesTheRealTargetAndTheRefusalNamesThePathAndTheRoot() throws Exception {
        Files.createSymbolicLink(rootDir.resolve("inner"), rootDir.resolve("src"));
        assertThat(root.resolve("inner/main/App.java")).isEqualTo(rootDir.resolve("src/main/App.java"));
        assertThat(root.resolve("..notes")).isEqualTo(rootDir.resolve("..notes"));
        assertThatThrownBy(() -> root.resolve("../x"))
                .isInstanceOf(PathOutsideRoot.class)
                .hasMessageContaining("../x")
                .hasMessageContaining(rootDir.toString())
                .satisfies(e -> assertThat(((PathOutsideRoot) e).root()).isEqualTo(rootDir));
    }

    @Test
    void anEmptyOrMalformedPathIsRefused() {
        assertThat(root.contains("")).isFalse();
        assertThat(root.contains(null)).isFalse();
        assertThat(root.contains("bad\0name")).isFalse();
    }
}
