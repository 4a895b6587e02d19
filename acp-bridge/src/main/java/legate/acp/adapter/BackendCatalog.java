package legate.acp.adapter;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import legate.acp.connection.AdapterCommand;

/**
 * The agents the bridge knows by name and where their adapters are found. The lookup, in order:
 * the explicit path ({@code ACP_CLAUDE_BIN}, {@code ACP_CODEX_BIN}), then the project's own npm copy
 * under {@code adapters/node_modules}, then {@code PATH}.
 */
final class BackendCatalog {
    private static final String CLAUDE_PACKAGE = "@zed-industries/claude-agent-acp";
    private static final String CODEX_PACKAGE = "@zed-industries/codex-acp";

    private final Path claudeBin;
    private final Path codexBin;
    private final List<Path> adapterDirs;
    private final String searchPath;

    /**
     * @param claudeBin ACP_CLAUDE_BIN, or null
     * @param codexBin ACP_CODEX_BIN, or null
     * @param adapterDirs folders that may hold the project's {@code adapters/node_modules}, first wins
     * @param searchPath the PATH to search last
     */
    BackendCatalog(Path claudeBin, Path codexBin, List<Path> adapterDirs, String searchPath) {
        this.claudeBin = claudeBin;
        this.codexBin = codexBin;
        this.adapterDirs = List.copyOf(adapterDirs);
        this.searchPath = searchPath == null ? "" : searchPath;
    }

    /** {@code claude} or {@code codex}. */
    Backend backend(String id) throws AdapterNotInstalled {
        return switch (id.toLowerCase(Locale.ROOT)) {
            case Backend.CLAUDE -> claude();
            case Backend.CODEX -> codex();
            default -> throw new IllegalArgumentException("unknown backend '" + id + "': use claude or codex,"
                    + " or --agent-cmd (ACP_AGENT_CMD) for any other ACP agent");
        };
    }

    /** Any ACP agent, from its command line; {@code modeId} is its supervised mode, or null for none. */
    static Backend generic(String commandLine, String modeId) {
        List<String> words = CommandWords.split(commandLine);
        if (words.isEmpty()) {
            throw new IllegalArgumentException("the agent command is empty");
        }
        return new Backend(Backend.GENERIC, null, AdapterCommand.of(words), blankToNull(modeId),
                "Log the agent in as its own documentation says, on the machine and as the user running the bridge.");
    }

    private Backend claude() throws AdapterNotInstalled {
        List<String> argv = null;
        if (claudeBin != null) {
            argv = scriptOrProgram(existing(claudeBin, "ACP_CLAUDE_BIN"));
        }
        for (int i = 0; argv == null && i < adapterDirs.size(); i++) {
            Path script = adapterDirs.get(i).resolve("node_modules").resolve(CLAUDE_PACKAGE).resolve("dist/index.js");
            if (Files.isRegularFile(script)) {
                argv = scriptOrProgram(script);
            }
        }
        if (argv == null) {
            Path onPath = onPath("claude-agent-acp");
            argv = onPath == null ? null : List.of(onPath.toString());
        }
        if (argv == null) {
            throw new AdapterNotInstalled("claude-agent-acp is not installed: run adapters/install.sh (npm ci in"
                    + " adapters/), or npm install -g " + CLAUDE_PACKAGE + ", or set ACP_CLAUDE_BIN to its path");
        }
        // PEER (claude-agent-acp 0.23.1): run as root with IS_SANDBOX set to anything but 1, session/new
        // fails with -32603 "Query closed before response received".
        AdapterCommand command = AdapterCommand.of(argv).withoutEnv("IS_SANDBOX");
        return new Backend(Backend.CLAUDE, "Claude", command, "default",
                "Log in once with the Claude Code CLI (run `claude`, then /login) as the user running the bridge,"
                        + " or set ANTHROPIC_API_KEY in the bridge's environment, then send the task again.");
    }

    private Backend codex() throws AdapterNotInstalled {
        String binary = "codex-acp-" + platform();
        Path found = codexBin != null ? platformBinary(existing(codexBin, "ACP_CODEX_BIN")) : null;
        for (int i = 0; found == null && i < adapterDirs.size(); i++) {
            Path candidate = adapterDirs.get(i).resolve("node_modules").resolve(CODEX_PACKAGE + "-" + platform())
                    .resolve("bin").resolve(exe("codex-acp"));
            if (Files.isExecutable(candidate)) {
                found = candidate;
            }
        }
        if (found == null) {
            found = onPath(binary);
        }
        if (found == null) {
            Path wrapper = onPath("codex-acp");
            found = wrapper == null ? null : platformBinary(wrapper);
        }
        if (found == null) {
            throw new AdapterNotInstalled("codex-acp is not installed: run adapters/install.sh (npm ci in adapters/),"
                    + " or npm install -g " + CODEX_PACKAGE + ", or set ACP_CODEX_BIN to the codex-acp binary");
        }
        return new Backend(Backend.CODEX, "Codex", AdapterCommand.of(List.of(found.toString())), "read-only",
                "Log in once with `codex login` as the user running the bridge, or set OPENAI_API_KEY or"
                        + " CODEX_API_KEY in the bridge's environment, then send the task again.");
    }

    /**
     * PEER (codex-acp 0.16.0): the npm bin is a Node wrapper that does not forward signals; killing it
     * orphans the Rust binary, which keeps the pipes open. Spawn the platform binary it would run.
     */
    private Path platformBinary(Path given) {
        try {
            Path real = given.toRealPath();
            if (!real.getFileName().toString().endsWith(".js")) {
                return given;
            }
            // <prefix>/@zed-industries/codex-acp/bin/codex-acp.js -> <prefix>/@zed-industries/codex-acp-<platform>/bin/codex-acp
            Path sibling = real.getParent().getParent().resolveSibling("codex-acp-" + platform())
                    .resolve("bin").resolve(exe("codex-acp"));
            return Files.isExecutable(sibling) ? sibling : given;
        } catch (IOException | NullPointerException e) {
            return given;
        }
    }

    private List<String> scriptOrProgram(Path p) throws AdapterNotInstalled {
        String name = p.getFileName().toString();
        if (name.endsWith(".js") || name.endsWith(".mjs")) {
            Path node = onPath("node");
            if (node == null) {
                throw new AdapterNotInstalled("Node.js is needed to run " + p + " and was not found on PATH:"
                        + " install Node.js 20 or newer");
            }
            return List.of(node.toString(), p.toString());
        }
        return List.of(p.toString());
    }

    private static Path existing(Path p, String key) throws AdapterNotInstalled {
        if (!Files.isRegularFile(p)) {
            throw new AdapterNotInstalled(key + " names " + p + ", which is not a file");
        }
        return p.toAbsolutePath();
    }

    private Path onPath(String program) {
        List<String> dirs = new ArrayList<>(List.of(searchPath.split(File.pathSeparator)));
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, exe(program));
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate.toAbsolutePath();
            }
        }
        return null;
    }

    private static String exe(String name) {
        return System.getProperty("os.name", "").startsWith("Windows") ? name + ".exe" : name;
    }

    /** The suffix of codex-acp's platform packages: linux-x64, darwin-arm64, win32-x64. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String o = os.startsWith("mac") || os.startsWith("darwin") ? "darwin" : os.startsWith("windows") ? "win32" : "linux";
        String a = arch.equals("aarch64") || arch.equals("arm64") ? "arm64" : "x64";
        return o + "-" + a;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
