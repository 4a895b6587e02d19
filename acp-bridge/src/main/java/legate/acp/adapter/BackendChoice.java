package legate.acp.adapter;

import java.nio.file.Path;
import java.util.List;

/**
 * Which ACP agent the bridge runs, as its settings name it: any agent's command line
 * ({@code ACP_AGENT_CMD}, with its supervised mode {@code ACP_MODE}) wins; otherwise a known
 * backend by id ({@code ACP_AGENT}), found by the {@link BackendCatalog} lookup.
 *
 * @param backend {@code claude} or {@code codex}; used when there is no command line
 * @param commandLine any ACP agent's command line, split as a shell would (no shell runs); null or blank for none
 * @param mode the supervised session mode of the command-line agent; null or blank for none
 * @param claudeBin ACP_CLAUDE_BIN, or null
 * @param codexBin ACP_CODEX_BIN, or null
 * @param adapterDirs folders that may hold the project's {@code adapters/node_modules}, first wins
 * @param searchPath the PATH searched last
 */
public record BackendChoice(String backend, String commandLine, String mode, Path claudeBin, Path codexBin,
                            List<Path> adapterDirs, String searchPath) {

    public BackendChoice {
        adapterDirs = List.copyOf(adapterDirs);
    }

    /** Any ACP agent from its command line, with {@code mode} as its supervised mode (null for none). */
    public static BackendChoice commandLine(String commandLine, String mode) {
        return new BackendChoice(null, commandLine, mode, null, null, List.of(), null);
    }

    /** Whether the command line, not a known backend, names the agent. */
    public boolean isCommandLine() {
        return commandLine != null && !commandLine.isBlank();
    }

    /**
     * The backend chosen.
     *
     * @throws IllegalArgumentException for an unknown backend id or an empty command line
     * @throws AdapterNotInstalled when a known backend's adapter is nowhere the lookup searches
     */
    public Backend resolve() throws AdapterNotInstalled {
        return isCommandLine() ? BackendCatalog.generic(commandLine, mode)
                : new BackendCatalog(claudeBin, codexBin, adapterDirs, searchPath).backend(backend);
    }
}
