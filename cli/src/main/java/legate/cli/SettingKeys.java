package legate.cli;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import legate.acp.connection.EnvironmentNames;
import legate.mcp.McpConfig;
import legate.wire.trace.Tracing;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every configuration key Legate reads: the one list the bridge withholds from its agent, whether
 * the environment or {@code .env} sets the key. Most come from the commands' own options (each
 * option's environment key, in every subcommand), so a new option is withheld the day it is added;
 * the few keys read outside picocli are listed here beside where they are read.
 */
final class SettingKeys {
    /**
     * Read outside the options: LOG_FORMAT by {@link Legate#main}, the OTEL_* keys by tracing (one
     * may carry an exporter's credentials), LEGATE_JAVA_OPTS and LEGATE_CDS by bin/legate, AGENT and
     * TOKEN (a bearer token) by scripts/raw.sh.
     */
    private static final List<String> OUTSIDE_OPTIONS = List.of(Legate.LOG_FORMAT, "LEGATE_JAVA_OPTS", "LEGATE_CDS",
            "AGENT", "TOKEN");

    private SettingKeys() {
    }

    /** Legate's own keys; costs a parse of every command, so a bridge asks once, at start. */
    static EnvironmentNames all() {
        Set<String> keys = new HashSet<>(OUTSIDE_OPTIONS);
        keys.addAll(Tracing.KEYS);
        CommandLine every = Legate.commandLine(new Settings(Map.of(), Map.of()));
        for (CommandLine sub : every.getSubcommands().values()) {
            for (OptionSpec o : sub.getCommandSpec().options()) {
                if (o.descriptionKey() != null && !o.descriptionKey().isEmpty()) {
                    keys.add(o.descriptionKey());
                }
            }
        }
        // legate mcp reads one credential per agent alias: A2A_TOKEN_<ALIAS>, A2A_API_KEY_<ALIAS>.
        Set<String> prefixes = Set.of(McpConfig.credentialKey("A2A_TOKEN", ""), McpConfig.credentialKey("A2A_API_KEY", ""));
        return new EnvironmentNames(keys, prefixes);
    }
}
