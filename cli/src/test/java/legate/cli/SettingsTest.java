package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration precedence: flags, then the environment, then .env; a blank value is unset. */
class SettingsTest {

    @Test
    void dotenvLinesAllowCommentsExportAndQuotes() {
        Map<String, String> m = Settings.parseDotenv("""
                # a comment
                export PORT=41300
                AGENT_NAME="Rev isor"
                SINGLE='x y'
                URL=http://h/#frag # trailing comment
                NOEQUALS
                EMPTY=
                """);
        assertThat(m).containsEntry("PORT", "41300").containsEntry("AGENT_NAME", "Rev isor")
                .containsEntry("SINGLE", "x y").containsEntry("URL", "http://h/#frag").containsEntry("EMPTY", "")
                .doesNotContainKey("NOEQUALS");
    }

    @Test
    void theEnvironmentWinsOverTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".env"), "PORT=1\nHOST=10.0.0.1\n");
        Settings s = Settings.load(dir, Map.of("PORT", "2"));
        assertThat(s.get("PORT")).hasValue("2");
        assertThat(s.get("HOST")).hasValue("10.0.0.1");
    }

    @Test
    void aBlankValueMeansUnsetWhereverItComesFrom(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".env"), "AGENT_NAME=\nPORT=5\n");
        Settings s = Settings.load(dir, Map.of("PORT", "  "));
        assertThat(s.get("AGENT_NAME")).isEmpty();
        // a blank environment value does not hide the file's value
        assertThat(s.get("PORT")).hasValue("5");
    }

    @Test
    void noFileIsFine(@TempDir Path dir) {
        assertThat(Settings.load(dir, Map.of()).get("PORT")).isEmpty();
    }

    @Test
    void aFlagWinsOverTheEnvironmentAndTheEnvironmentOverTheDefault() {
        AgentCommand fromEnv = parse(Map.of("PORT", "41999"));
        assertThat(fromEnv.server.port).isEqualTo(41999);
        AgentCommand fromFlag = parse(Map.of("PORT", "41999"), "--port", "42000");
        assertThat(fromFlag.server.port).isEqualTo(42000);
        AgentCommand defaults = parse(Map.of());
        assertThat(defaults.server.port).isEqualTo(41241);
        assertThat(defaults.server.host).isEqualTo("127.0.0.1");
    }

    private static AgentCommand parse(Map<String, String> env, String... args) {
        picocli.CommandLine cl = Legate.commandLine(new Settings(env, Map.of()));
        String[] all = new String[args.length + 1];
        all[0] = "agent";
        System.arraycopy(args, 0, all, 1, args.length);
        picocli.CommandLine.ParseResult r = cl.parseArgs(all);
        return (AgentCommand) r.subcommand().commandSpec().userObject();
    }
}
