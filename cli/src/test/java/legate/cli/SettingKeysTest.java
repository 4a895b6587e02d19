package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.acp.adapter.Backend;
import legate.acp.connection.AdapterCommand;
import legate.acp.connection.EnvironmentNames;
import legate.acp.connection.ProcessLauncher;
import legate.testsupport.SourceTree;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DEFECT (issue 30, item 4): the bridge filtered only the keys of {@code .env} and its agent inherited
 * the environment whole, so DATABASE_URL with its password, MCP_TOKEN and A2A_CLIENT_SECRET reached
 * a test agent. Legate's own keys never reach the agent, whatever their source; the agent's own
 * (ANTHROPIC_API_KEY, OPENAI_API_KEY, PATH, HOME) still do.
 */
class SettingKeysTest {
    private static final Pattern ENV_EXAMPLE_KEY = Pattern.compile("(?m)^([A-Z][A-Z0-9_]*)=");
    private static final Pattern README_ROW = Pattern.compile("(?m)^\\| ((?:`[^`]+`(?:, )?)+) \\|");
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
    /** What README "legate bridge" says is meant for the agent: its credentials and the ordinary variables. */
    private static final List<String> THE_AGENTS = List.of("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN",
            "PATH", "HOME", "LANG");

    private static final EnvironmentNames OWN = SettingKeys.all();

    @Test
    void everyKeyOfEnvExampleIsWithheld() throws IOException {
        Set<String> keys = envExampleKeys();
        assertThat(keys).contains("DATABASE_URL", "MCP_TOKEN", "A2A_CLIENT_SECRET", "METRICS_TOKEN");
        assertThat(keys).filteredOn(k -> !OWN.contains(k)).as(".env.example keys the bridge would hand its agent").isEmpty();
    }

    @Test
    void everyKeyOfTheReadmesConfigurationTableIsWithheld() throws IOException {
        Set<String> keys = readmeKeys();
        assertThat(keys).contains("PUSH_SIGNING_KEY", "CARD_SIGNING_KEY", "TLS_KEY", "A2A_TOKENS_FILE",
                "A2A_TOKEN_CODER", "OTEL_EXPORTER_OTLP_ENDPOINT", "LEGATE_JAVA_OPTS");
        assertThat(keys).filteredOn(k -> !OWN.contains(k)).as("README keys the bridge would hand its agent").isEmpty();
    }

    @Test
    void theAgentsOwnKeysAreNotLegates() {
        assertThat(THE_AGENTS).filteredOn(OWN::contains).isEmpty();
    }

    @Test
    void aChildStartedTheBridgesWayGetsNoneOfLegatesKeysWhateverTheirSource(@TempDir Path dir) throws Exception {
        Set<String> legates = new TreeSet<>(OWN.exact());
        legates.addAll(envExampleKeys());
        legates.addAll(readmeKeys());
        // The secrets issue 30 names, each checked below on its own: passwords, tokens, keys and the files holding them.
        assertThat(legates).contains("DATABASE_URL", "MCP_TOKEN", "MCP_TOKEN_FILE", "A2A_CLIENT_SECRET", "A2A_CLIENT_KEY",
                "A2A_TOKEN", "A2A_API_KEY", "A2A_TOKEN_CODER", "A2A_TOKENS_FILE", "A2A_JWT_KEY", "METRICS_TOKEN",
                "PUSH_SIGNING_KEY", "CARD_SIGNING_KEY", "TLS_KEY", "TOKEN");
        // The bridge's own environment, as the launcher is given it: every Legate key set to a secret of its own.
        Map<String, String> parent = new HashMap<>();
        legates.forEach(k -> parent.put(k, "secret-of-" + k));
        for (String k : THE_AGENTS) {
            parent.put(k, "agents-" + k);
        }
        // What .env adds: an agent's key the environment lacks, and Legate keys that must not ride along.
        parent.remove("OPENAI_API_KEY");
        Map<String, String> dotenv = Map.of("OPENAI_API_KEY", "agents-OPENAI_API_KEY", "MCP_TOKEN", "dotenv-secret",
                "A2A_TOKEN_REVIEWER", "dotenv-secret");
        Backend backend = new Backend(Backend.GENERIC, "report", AdapterCommand.of(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                EnvironmentReport.class.getName())), null, "").withEnvironment(dotenv, OWN);

        Map<String, String> seen = childEnvironment(ProcessLauncher.inEnvironment(parent).launch(backend.command(), dir));

        SoftAssertions soft = new SoftAssertions();
        for (String key : legates) {
            soft.assertThat(seen).as(key).doesNotContainKey(key);
        }
        soft.assertThat(seen).doesNotContainKey("A2A_TOKEN_REVIEWER").doesNotContainValue("dotenv-secret");
        for (String key : THE_AGENTS) {
            soft.assertThat(seen).as(key).containsEntry(key, "agents-" + key);
        }
        soft.assertAll();
    }

    private static Map<String, String> childEnvironment(Process p) throws Exception {
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        Map<String, String> env = new TreeMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return env;
    }

    private static Set<String> envExampleKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        Matcher m = ENV_EXAMPLE_KEY.matcher(Files.readString(SourceTree.resolve(".env.example")));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /** The keys of README "Configuration": each backticked name of a row's first cell; {@code <ALIAS>} as one alias. */
    private static Set<String> readmeKeys() throws IOException {
        String readme = Files.readString(SourceTree.resolve("README.md"));
        int from = readme.indexOf("\n## Configuration\n");
        String section = readme.substring(from, readme.indexOf("\n## ", from + 1));
        Set<String> keys = new TreeSet<>();
        Matcher row = README_ROW.matcher(section);
        while (row.find()) {
            Matcher key = BACKTICKED.matcher(row.group(1));
            while (key.find()) {
                String k = key.group(1).replace("<ALIAS>", "CODER");
                // A family (OTEL_*, ACP_*) is checked through its members, which .env.example and the options list.
                if (!k.endsWith("*")) {
                    keys.add(k);
                }
            }
        }
        return keys;
    }
}
