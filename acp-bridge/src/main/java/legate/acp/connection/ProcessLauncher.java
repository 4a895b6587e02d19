package legate.acp.connection;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Starts an agent's process with its three pipes. The seam through which tests hold a start back (a
 * slow adapter) or change the environment; production uses {@link #system()}.
 */
@FunctionalInterface
public interface ProcessLauncher {

    Process launch(AdapterCommand command, Path workingDir) throws IOException;

    /**
     * A real child of this JVM: the bridge's environment with the command's changes applied, so what
     * the command withholds is gone even when the bridge's own environment holds it.
     */
    static ProcessLauncher system() {
        return inEnvironment(null);
    }

    /**
     * A real child whose environment starts from {@code base} instead of the bridge's own (null keeps
     * the bridge's), with the command's changes applied on top: how a test runs an agent in the
     * environment of another machine.
     */
    static ProcessLauncher inEnvironment(Map<String, String> base) {
        return (command, workingDir) -> {
            ProcessBuilder pb = new ProcessBuilder(command.argv());
            if (workingDir != null) {
                pb.directory(workingDir.toFile());
            }
            if (base != null) {
                pb.environment().clear();
                pb.environment().putAll(base);
            }
            // DEFECT: only the keys of .env were filtered, and the environment was inherited whole, so a
            // DATABASE_URL with its password, MCP_TOKEN and A2A_CLIENT_SECRET exported for Legate reached the agent.
            pb.environment().keySet().removeIf(command::unsets);
            pb.environment().putAll(command.setEnv());
            return pb.start();
        };
    }
}
