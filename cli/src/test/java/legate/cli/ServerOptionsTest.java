package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The server options {@code legate agent} and {@code legate bridge} share as one mixin: the same
 * flags, keys and defaults in both, and the environment (through each option's key) still under the
 * flags and over the defaults, as it was when each command declared them itself.
 */
class ServerOptionsTest {
    private static final Map<String, String> ENV = Map.of("HOST", "0.0.0.0", "PORT", "41999",
            "PUBLIC_URL", "http://proxy:8080/a2a", "AGENT_NAME", "Named", "MAX_BODY_BYTES", "2048");

    private static ServerOptions parse(String command, Map<String, String> env, String... flags) {
        CommandLine cl = Legate.commandLine(new Settings(env, Map.of()));
        String[] args = new String[flags.length + 1];
        args[0] = command;
        System.arraycopy(flags, 0, args, 1, flags.length);
        Object parsed = cl.parseArgs(args).subcommand().commandSpec().userObject();
        return switch (parsed) {
            case AgentCommand agent -> agent.server;
            case BridgeCommand bridge -> bridge.server;
            default -> throw new AssertionError("not a server command: " + parsed);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void everyKeyReachesTheMixinFromTheEnvironment(String command) {
        ServerOptions o = parse(command, ENV);
        assertThat(o.host).isEqualTo("0.0.0.0");
        assertThat(o.port).isEqualTo(41999);
        assertThat(o.publicUrl).isEqualTo("http://proxy:8080/a2a");
        assertThat(o.name).isEqualTo("Named");
        assertThat(o.maxBodyBytes).isEqualTo(2048);
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void aFlagWinsOverTheEnvironment(String command) {
        ServerOptions o = parse(command, ENV, "--host", "127.0.0.2", "--port", "42000", "--public-url", "http://x/",
                "--name", "Flag", "--max-body-bytes", "4096");
        assertThat(o.host).isEqualTo("127.0.0.2");
        assertThat(o.port).isEqualTo(42000);
        assertThat(o.publicUrl).isEqualTo("http://x/");
        assertThat(o.name).isEqualTo("Flag");
        assertThat(o.maxBodyBytes).isEqualTo(4096);
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void theDefaultsAreTheSameForBothCommands(String command) {
        ServerOptions o = parse(command, Map.of());
        assertThat(o.host).isEqualTo("127.0.0.1");
        assertThat(o.port).isEqualTo(41241);
        assertThat(o.publicUrl).isNull();
        assertThat(o.name).isNull();
        assertThat(o.maxBodyBytes).isEqualTo(1048576);
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void theHelpNamesEachKey(String command) {
        String help = Legate.commandLine(new Settings(Map.of(), Map.of())).getSubcommands().get(command).getUsageMessage();
        assertThat(help).contains("--host=<host>", "[HOST]", "--port=<port>", "[PORT]", "--public-url=<publicUrl>",
                "[PUBLIC_URL]", "--name=<name>", "[AGENT_NAME]", "--max-body-bytes=<maxBodyBytes>", "[MAX_BODY_BYTES]");
    }
}
