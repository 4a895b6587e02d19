package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The server options {@code legate agent} and {@code legate bridge} share as one mixin: the same
 * flags, keys and defaults in both, and the environment (through each option's key) still under the
 * flags and over the defaults, as it was when each command declared them itself.
 */
class ServerOptionsTest {
    private static final Map<String, String> ENV = Map.ofEntries(Map.entry("HOST", "0.0.0.0"), Map.entry("PORT", "41999"),
            Map.entry("PUBLIC_URL", "http://proxy:8080/a2a"), Map.entry("AGENT_NAME", "Named"),
            Map.entry("MAX_BODY_BYTES", "2048"), Map.entry("TASK_STORE", "postgres"), Map.entry("DATA_DIR", "/var/lib/legate"),
            Map.entry("DATABASE_URL", "postgres://u:s3cret@db:5432/legate"), Map.entry("TASK_RETENTION", "12h"),
            Map.entry("MAX_TASKS", "500"), Map.entry("INSTANCE_URL", "http://10.0.0.5:41241/"),
            Map.entry("INSTANCE_ID", "east-1"), Map.entry("LEASE_TTL_MS", "6000"), Map.entry("LEASE_HEARTBEAT_MS", "1000"),
            Map.entry("A2A_INSECURE", "true"), Map.entry("MAX_TASKS_PER_PRINCIPAL", "9"),
            Map.entry("A2A_API_KEY_HEADER", "X-Key"));

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
        assertThat(o.store).isEqualTo("postgres");
        assertThat(o.dataDir()).isEqualTo(Path.of("/var/lib/legate"));
        assertThat(o.databaseUrl).isEqualTo("postgres://u:s3cret@db:5432/legate");
        assertThat(o.taskRetention).isEqualTo(Duration.ofHours(12));
        assertThat(o.maxTasks).isEqualTo(500);
        assertThat(o.config("/").taskRetention()).isEqualTo(Duration.ofHours(12));
        assertThat(o.instanceUrl).isEqualTo("http://10.0.0.5:41241/");
        assertThat(o.instanceId).isEqualTo("east-1");
        assertThat(o.leaseTtlMs).isEqualTo(6000);
        assertThat(o.leaseHeartbeatMs).isEqualTo(1000);
        // README "Security": a wildcard bind without a scheme starts only with A2A_INSECURE.
        assertThat(o.security.insecure).isTrue();
        assertThat(o.security.apiKeyHeader).isEqualTo("X-Key");
        assertThat(o.config("/").security().maxTasksPerPrincipal()).isEqualTo(9);
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void aFlagWinsOverTheEnvironment(String command) {
        ServerOptions o = parse(command, ENV, "--host", "127.0.0.2", "--port", "42000", "--public-url", "http://x/",
                "--name", "Flag", "--max-body-bytes", "4096", "--store", "memory", "--data-dir", "d",
                "--database-url", "jdbc:postgresql://h/db", "--task-retention", "0", "--max-tasks", "7",
                "--instance-url", "http://h2:1/", "--instance-id", "west-2", "--lease-ttl-ms", "9000",
                "--lease-heartbeat-ms", "3000");
        assertThat(o.host).isEqualTo("127.0.0.2");
        assertThat(o.port).isEqualTo(42000);
        assertThat(o.publicUrl).isEqualTo("http://x/");
        assertThat(o.name).isEqualTo("Flag");
        assertThat(o.maxBodyBytes).isEqualTo(4096);
        assertThat(o.store).isEqualTo("memory");
        assertThat(o.dataDir()).isEqualTo(Path.of("d"));
        assertThat(o.databaseUrl).isEqualTo("jdbc:postgresql://h/db");
        assertThat(o.taskRetention).isZero();
        assertThat(o.maxTasks).isEqualTo(7);
        assertThat(o.instanceUrl).isEqualTo("http://h2:1/");
        assertThat(o.instanceId).isEqualTo("west-2");
        assertThat(o.leaseTtlMs).isEqualTo(9000);
        assertThat(o.leaseHeartbeatMs).isEqualTo(3000);
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
        assertThat(o.store).isEqualTo("sqlite");
        // DEFECT (issue 30): both commands defaulted to data/, so the README's tour (legate agent, then
        // legate bridge, from one folder) had the second refused: "data/legate.db is in use".
        assertThat(o.dataDir()).isEqualTo(Path.of("data", command));
        assertThat(o.databaseUrl).isNull();
        assertThat(o.taskRetention).isEqualTo(Duration.ofDays(7));
        assertThat(o.maxTasks).isEqualTo(100000);
        assertThat(o.instanceUrl).isNull();
        assertThat(o.instanceId).isNull();
        assertThat(o.leaseTtlMs).isEqualTo(10000);
        assertThat(o.leaseHeartbeatMs).isEqualTo(2000);
    }

    /**
     * Issue 30: MAX_TASKS_PER_PRINCIPAL defaulted to 4 for {@code legate agent} too, and 20 concurrent
     * streams from one client got 16 refusals (-32004). The stub costs nothing per task: no limit by
     * default there; the bridge, where each task runs a coding agent, keeps 4. Each help says its own.
     */
    @Test
    void theAgentHasNoLimitPerCallerByDefaultAndTheBridgeKeepsFour() {
        assertThat(parse("agent", Map.of()).config("/").security().maxTasksPerPrincipal()).isZero();
        assertThat(AgentCommand.fromSettings(new Settings(Map.of(), Map.of())).server.config("/").security()
                .maxTasksPerPrincipal()).as("the agent's fast start, without picocli").isZero();
        assertThat(parse("bridge", Map.of()).config("/").security().maxTasksPerPrincipal()).isEqualTo(4);
        assertThat(usage("agent")).contains("[MAX_TASKS_PER_PRINCIPAL] (default: 0; legate agent: 0, no limit");
        assertThat(usage("bridge")).contains("[MAX_TASKS_PER_PRINCIPAL] (default: 4; legate agent: 0, no limit")
                .contains("legate bridge: 4, each task runs a coding agent");
        // A value given still wins, in both commands.
        assertThat(parse("agent", Map.of("MAX_TASKS_PER_PRINCIPAL", "3")).security.maxTasksPerPrincipal).isEqualTo(3);
        assertThat(parse("bridge", Map.of(), "--max-tasks-per-principal", "0").security.maxTasksPerPrincipal).isZero();
    }

    /**
     * Issue 30: one caller could hold streams open without end (a SubscribeToTask of a parked task is
     * held until the task ends). MAX_STREAMS_PER_PRINCIPAL bounds them, 1,000 by default in both
     * commands, said in each help; a value given wins; a negative one is a usage error naming the key.
     */
    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void heldStreamsPerCallerAreBoundedByDefaultAndTheHelpSaysSo(String command) {
        assertThat(parse(command, Map.of()).config("/").security().maxStreamsPerPrincipal()).isEqualTo(1000);
        assertThat(usage(command)).contains("[MAX_STREAMS_PER_PRINCIPAL] (default: 1000)");
        assertThat(parse(command, Map.of("MAX_STREAMS_PER_PRINCIPAL", "0")).config("/").security()
                .maxStreamsPerPrincipal()).isZero();
        assertThat(parse(command, Map.of(), "--max-streams-per-principal", "7").config("/").security()
                .maxStreamsPerPrincipal()).isEqualTo(7);
        assertThatThrownBy(() -> parse(command, Map.of("MAX_STREAMS_PER_PRINCIPAL", "-1")).config("/"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MAX_STREAMS_PER_PRINCIPAL must be >= 0");
    }

    @Test
    void theAgentsFastStartReadsTheStreamBoundToo() {
        assertThat(AgentCommand.fromSettings(new Settings(Map.of(), Map.of())).server.config("/").security()
                .maxStreamsPerPrincipal()).isEqualTo(1000);
        assertThat(AgentCommand.fromSettings(new Settings(Map.of("MAX_STREAMS_PER_PRINCIPAL", "3"), Map.of())).server
                .config("/").security().maxStreamsPerPrincipal()).isEqualTo(3);
    }

    /** A command's help on one line, so a check does not depend on where picocli wraps. */
    private static String usage(String command) {
        return Legate.commandLine(new Settings(Map.of(), Map.of())).getSubcommands().get(command).getUsageMessage()
                .replaceAll("\\s+", " ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void theHelpNamesEachKey(String command) {
        String help = Legate.commandLine(new Settings(Map.of(), Map.of())).getSubcommands().get(command).getUsageMessage();
        assertThat(help).contains("--host=<host>", "[HOST]", "--port=<port>", "[PORT]", "--public-url=<publicUrl>",
                "[PUBLIC_URL]", "--name=<name>", "[AGENT_NAME]", "--max-body-bytes=<maxBodyBytes>", "[MAX_BODY_BYTES]",
                "--store=<store>", "[TASK_STORE]", "--data-dir=<dataDir>", "[DATA_DIR]", "--database-url=<databaseUrl>",
                "[DATABASE_URL]", "--task-retention=<taskRetention>", "[TASK_RETENTION]", "--max-tasks=<maxTasks>",
                "[MAX_TASKS]", "--instance-url=<instanceUrl>", "[INSTANCE_URL]", "--instance-id=<instanceId>",
                "[INSTANCE_ID]", "--lease-ttl-ms=<leaseTtlMs>", "[LEASE_TTL_MS]",
                "--lease-heartbeat-ms=<leaseHeartbeatMs>", "[LEASE_HEARTBEAT_MS]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void theHelpNeverShowsTheDatabasePassword(String command) {
        // Secure by default: a DATABASE_URL from the environment is never printed, password included.
        String help = Legate.commandLine(new Settings(ENV, Map.of())).getSubcommands().get(command).getUsageMessage();
        assertThat(help).doesNotContain("s3cret").doesNotContain("postgres://u:");
    }

    private record Outcome(int exitCode, String stderr) {
    }

    /** Runs the command as picocli would; each case here fails before anything is started. */
    private static Outcome execute(Map<String, String> env, String... args) {
        CommandLine cl = Legate.commandLine(new Settings(env, Map.of()), args);
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Outcome(code, err.toString());
    }

    // Checked before connecting: a bad instance key is a usage error even when the database is down.
    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void aBadInstanceKeyIsAUsageErrorNamingIt(String command) {
        String unreachable = "postgres://u@127.0.0.1:1/legate";
        Outcome url = execute(Map.of("DATABASE_URL", unreachable), command, "--store", "postgres", "--port", "0",
                "--instance-url", "10.0.0.5:41241");
        assertThat(url.exitCode()).isEqualTo(2);
        assertThat(url.stderr()).contains("INSTANCE_URL must be an absolute http(s) URL");
        Outcome beat = execute(Map.of("DATABASE_URL", unreachable), command, "--store", "postgres", "--port", "0",
                "--lease-ttl-ms", "3000", "--lease-heartbeat-ms", "1500");
        assertThat(beat.exitCode()).isEqualTo(2);
        assertThat(beat.stderr()).contains("LEASE_HEARTBEAT_MS must be above 0 and at most a third of LEASE_TTL_MS");
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void aStoreThatCannotBeOpenedIsAUsageErrorNamingIt(String command) {
        Outcome noUrl = execute(Map.of(), command, "--store", "postgres", "--port", "0");
        assertThat(noUrl.exitCode()).isEqualTo(2);
        assertThat(noUrl.stderr()).contains("TASK_STORE=postgres needs DATABASE_URL");
        Outcome badUrl = execute(Map.of("DATABASE_URL", "mysql://u:s3cret@db/legate"), command, "--store", "postgres",
                "--port", "0");
        assertThat(badUrl.exitCode()).isEqualTo(2);
        assertThat(badUrl.stderr()).contains("DATABASE_URL").doesNotContain("s3cret");
        Outcome unknown = execute(Map.of(), command, "--store", "redis", "--port", "0");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.stderr()).contains("TASK_STORE must be sqlite, memory or postgres, got \"redis\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "bridge"})
    void aRetentionThatIsNotADurationIsAUsageErrorSayingHowToWriteOne(String command) {
        Outcome r = execute(Map.of("TASK_RETENTION", "7 days"), command);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("--task-retention").contains("\"7 days\" is not a duration").contains("30s, 10m, 12h, 7d");
    }
}
