package legate.acp.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the known adapters are found: explicit path, then the project's npm copy, then PATH; else what to install. */
class BackendCatalogTest {
    @TempDir
    Path dir;

    private Path executable(Path p) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    private Path adapters() throws IOException {
        Path a = dir.resolve("adapters");
        executable(a.resolve("node_modules/@zed-industries/claude-agent-acp/dist/index.js"));
        executable(a.resolve("node_modules/@zed-industries/codex-acp-" + BackendCatalog.platform() + "/bin/codex-acp"));
        return a;
    }

    @Test
    void theExplicitPathWinsOverTheProjectCopy() throws Exception {
        Path mine = executable(dir.resolve("mine/claude-agent-acp"));
        Backend b = new BackendCatalog(mine, null, List.of(adapters()), "").backend("claude");
        assertThat(b.command().argv()).containsExactly(mine.toString());
    }

    @Test
    void theProjectCopyOfClaudeRunsUnderNodeWithoutIsSandbox() throws Exception {
        Path node = executable(dir.resolve("bin/node"));
        Backend b = new BackendCatalog(null, null, List.of(adapters()), dir.resolve("bin").toString()).backend("claude");
        assertThat(b.command().argv()).containsExactly(node.toString(),
                dir.resolve("adapters/node_modules/@zed-industries/claude-agent-acp/dist/index.js").toString());
        // PEER (claude-agent-acp): IS_SANDBOX set to anything but 1 breaks session/new when run as root.
        assertThat(b.command().unsetEnv()).contains("IS_SANDBOX");
        assertThat(b.supervisedModeId()).isEqualTo("default");
    }

    @Test
    void pathIsTheLastPlaceSearched() throws Exception {
        Path onPath = executable(dir.resolve("bin/claude-agent-acp"));
        Backend b = new BackendCatalog(null, null, List.of(dir.resolve("nowhere")), dir.resolve("bin").toString())
                .backend("claude");
        assertThat(b.command().argv()).containsExactly(onPath.toString());
    }

    @Test
    void codexIsTheNativeBinaryEvenWhenPathHoldsItsNodeWrapper() throws Exception {
        // PEER (codex-acp 0.16.0): the npm bin is a Node wrapper that does not forward signals.
        Path scope = dir.resolve("lib/node_modules/@zed-industries");
        Path wrapper = executable(scope.resolve("codex-acp/bin/codex-acp.js"));
        Path binary = executable(scope.resolve("codex-acp-" + BackendCatalog.platform() + "/bin/codex-acp"));
        Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(dir.resolve("bin/codex-acp"), wrapper);
        Backend b = new BackendCatalog(null, null, List.of(), dir.resolve("bin").toString()).backend("codex");
        assertThat(b.command().argv()).containsExactly(binary.toRealPath().toString());
        assertThat(b.supervisedModeId()).isEqualTo("read-only");
    }

    @Test
    void aMissingAdapterNamesWhatToInstall() {
        BackendCatalog none = new BackendCatalog(null, null, List.of(dir), dir.toString());
        assertThatThrownBy(() -> none.backend("claude")).isInstanceOf(AdapterNotInstalled.class)
                .hasMessageContaining("adapters/install.sh").hasMessageContaining("@zed-industries/claude-agent-acp")
                .hasMessageContaining("ACP_CLAUDE_BIN");
        assertThatThrownBy(() -> none.backend("codex")).hasMessageContaining("@zed-industries/codex-acp")
                .hasMessageContaining("ACP_CODEX_BIN");
        assertThatThrownBy(() -> new BackendCatalog(dir.resolve("typo"), null, List.of(), "").backend("claude"))
                .hasMessageContaining("ACP_CLAUDE_BIN names").hasMessageContaining("typo");
        assertThatThrownBy(() -> none.backend("gemini")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--agent-cmd");
    }

    @Test
    void anyOtherAgentComesFromItsCommandLine() {
        Backend b = BackendCatalog.generic("node 'my agent.mjs' --verbose", " ");
        assertThat(b.command().argv()).containsExactly("node", "my agent.mjs", "--verbose");
        assertThat(b.supervisedModeId()).as("a blank ACP_MODE selects no mode").isNull();
        assertThat(BackendCatalog.generic("agent", "careful").supervisedModeId()).isEqualTo("careful");
    }

    @Test
    void theProjectsOwnAdaptersAreFound() throws Exception {
        BackendCatalog real = new BackendCatalog(null, null, List.of(NodeScript.installed("adapters")), System.getenv("PATH"));
        assertThat(real.backend("claude").command().argv().get(1)).endsWith("claude-agent-acp/dist/index.js");
        assertThat(real.backend("codex").command().argv().get(0))
                .endsWith("codex-acp-" + BackendCatalog.platform() + "/bin/codex-acp");
    }
}
