package legate.cli.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import legate.cli.Legate;
import legate.cli.Settings;
import legate.testsupport.ChildCommand;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate service} against a fake service manager (the real one cannot run here), with the
 * services themselves run for real from the working folders the install wrote: what the manager
 * is told, in order; what lands on disk and with which modes; and that status's live checks pass
 * exactly when the real agent and the real MCP server answer with the configuration and token the
 * install pinned.
 */
class ServicesTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    FakeServiceManager fake;
    ServiceLayout layout;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws IOException {
        fake = new FakeServiceManager(dir);
        Path launcher = dir.resolve("legate");
        Files.writeString(launcher, "#!/bin/sh\n");
        layout = new ServiceLayout(launcher, dir.resolve("state/legate"), dir.resolve("config/systemd/user"),
                dir.resolve("state/legate/logs"));
    }

    private Services services(ServicePlatform platform) {
        return new Services(platform, layout, new HostCommands(fake.env()), "alice", "501", Settings::parseDotenv,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    @Test
    void installWritesPrivateConfigurationTellsSystemdAndStatusChecksTheRealServers() throws Exception {
        int agentPort = freePort();
        int mcpPort = freePort();
        ServiceEnvironment source = ServiceEnvironment.from(Map.of("PORT", "" + agentPort, "MCP_PORT", "" + mcpPort,
                "ANTHROPIC_API_KEY", "sk-secret"), Map.of("STEP_DELAY_MS", "7", "UNRELATED", "x"),
                List.of("STEP_DELAY_MS", "PORT"));
        Services services = services(ServicePlatform.SYSTEMD);

        int rc = services.install(List.of(ServiceKind.AGENT), null, true, source, Map.of("PATH", "/usr/bin:/bin"));

        assertThat(rc).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(fake.calls()).containsExactly(
                "systemctl --user daemon-reload", "systemctl --user enable legate-agent.service",
                "systemctl --user restart legate-agent.service",
                "systemctl --user daemon-reload", "systemctl --user enable legate-mcp.service",
                "systemctl --user restart legate-mcp.service",
                "loginctl show-user alice --property=Linger --value");
        // Secrets stay in the service's .env, readable by its owner only, never in the unit.
        Path agentEnv = layout.envFile(ServiceKind.AGENT);
        assertThat(Files.getPosixFilePermissions(agentEnv)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(layout.workDir(ServiceKind.AGENT)))
                .isEqualTo(PosixFilePermissions.fromString("rwx------"));
        String unit = Files.readString(layout.unitDir().resolve("legate-agent.service"));
        assertThat(unit).doesNotContain("sk-secret").contains("WorkingDirectory=" + layout.workDir(ServiceKind.AGENT));
        Map<String, String> agent = Settings.parseDotenv(Files.readString(agentEnv));
        assertThat(agent).containsEntry("ANTHROPIC_API_KEY", "sk-secret").containsEntry("STEP_DELAY_MS", "7")
                .doesNotContainKey("UNRELATED");
        Map<String, String> mcp = Settings.parseDotenv(Files.readString(layout.envFile(ServiceKind.MCP)));
        String token = mcp.get("MCP_TOKEN");
        assertThat(token).matches("[A-Za-z0-9_-]{43}");
        assertThat(mcp).containsEntry("A2A_URL", "http://127.0.0.1:" + agentPort + "/");
        assertThat(printed()).contains("loginctl enable-linger alice")
                .contains("claude mcp add --transport http legate-mcp http://127.0.0.1:" + mcpPort + "/mcp --header "
                        + "'Authorization: Bearer " + token + "'");

        // Nothing runs yet: the manager may say active, the live checks must not.
        out.reset();
        assertThat(services.status(List.of())).isEqualTo(Services.UNHEALTHY);
        assertThat(printed()).contains("legate-agent  systemd: active (running), pid 4242, restarted 1 time(s)")
                .contains("FAIL http://127.0.0.1:" + agentPort + "/.well-known/agent-card.json: no answer");

        // The servers as the units would run them: in their working folders, configured by their .env alone.
        cleanup.register(ChildCommand.java(Legate.class, "agent").in(layout.workDir(ServiceKind.AGENT))
                .without("PORT", "HOST", "AGENT_NAME", "TASK_STORE", "DATA_DIR").start())
                .awaitLine(Pattern.compile("listening on"), Duration.ofSeconds(60));
        cleanup.register(ChildCommand.java(Legate.class, "mcp").in(layout.workDir(ServiceKind.MCP))
                .without("MCP_TOKEN", "MCP_HOST", "MCP_PORT", "AGENT_NAME", "A2A_AGENTS", "A2A_URL").start())
                .awaitLine(Pattern.compile("claude mcp add"), Duration.ofSeconds(60));
        out.reset();
        assertThat(services.status(List.of())).as(printed()).isZero();
        assertThat(printed()).contains("ok   http://127.0.0.1:" + agentPort + "/.well-known/agent-card.json: HTTP 200")
                .contains("without the token: HTTP 401").contains("with the token: HTTP 200");
    }

    @Test
    void installingAgainKeepsThePinnedTokenSoConnectedClientsStayConnected() throws Exception {
        Services services = services(ServicePlatform.SYSTEMD);
        ServiceEnvironment source = ServiceEnvironment.from(Map.of(), Map.of(), List.of());
        assertThat(services.install(List.of(ServiceKind.MCP), null, false, source, Map.of())).isZero();
        String first = services.read(ServiceKind.MCP).get("MCP_TOKEN").orElseThrow();
        assertThat(services.install(List.of(ServiceKind.MCP), null, false, source, Map.of())).isZero();
        assertThat(services.read(ServiceKind.MCP).get("MCP_TOKEN")).contains(first);
        out.reset();
        assertThat(services.token()).isZero();
        assertThat(printed()).contains("Token: " + first).contains("\"Authorization\": \"Bearer " + first + "\"");
    }

    @Test
    void theBackendGoesIntoTheBridgesConfigurationAndUninstallKeepsDataUnlessPurged() throws Exception {
        Services services = services(ServicePlatform.SYSTEMD);
        ServiceEnvironment source = ServiceEnvironment.from(Map.of("ACP_AGENT", "claude"), Map.of(), List.of());
        assertThat(services.install(List.of(ServiceKind.BRIDGE), "codex", false, source, Map.of())).isZero();
        assertThat(services.read(ServiceKind.BRIDGE).get("ACP_AGENT")).contains("codex");
        // Its working folder is its own: the store stays in data/ there, where services installed
        // before each command had a default folder of its own (data/agent, data/bridge) keep theirs.
        assertThat(services.read(ServiceKind.BRIDGE).get("DATA_DIR")).contains("data");
        Path data = Files.createDirectories(layout.workDir(ServiceKind.BRIDGE).resolve("data"));

        assertThat(services.uninstall(List.of(), false)).isZero();
        assertThat(fake.calls()).contains("systemctl --user disable --now legate-bridge.service");
        assertThat(layout.unitDir().resolve("legate-bridge.service")).doesNotExist();
        assertThat(data).exists();
        assertThat(services.installed()).isEmpty();
        assertThat(services.start(List.of())).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no Legate service is installed");

        assertThat(services.install(List.of(ServiceKind.BRIDGE), null, false, source, Map.of())).isZero();
        assertThat(services.uninstall(List.of(ServiceKind.BRIDGE), true)).isZero();
        assertThat(layout.workDir(ServiceKind.BRIDGE)).doesNotExist();
    }

    /**
     * DEFECT (issue 30): uninstall's hint "legate service uninstall --purge removes them" answered
     * "no Legate service is installed" and removed nothing, once the unit it had just removed was gone.
     */
    @Test
    void thePurgeThatUninstallSuggestsRemovesWhatAnUninstalledServiceLeftBehind() throws Exception {
        Services services = services(ServicePlatform.SYSTEMD);
        ServiceEnvironment source = ServiceEnvironment.from(Map.of(), Map.of(), List.of());
        assertThat(services.install(List.of(ServiceKind.AGENT, ServiceKind.BRIDGE), null, false, source, Map.of()))
                .isZero();
        // Where an installed agent keeps its store: install pins DATA_DIR=data in its working folder.
        Path data = Files.createDirectories(layout.workDir(ServiceKind.AGENT).resolve("data"));
        Files.writeString(data.resolve("legate.db"), "tasks");
        assertThat(services.uninstall(List.of(), false)).isZero();
        assertThat(printed()).contains("legate service uninstall --purge removes them");
        out.reset();
        int told = fake.calls().size();

        assertThat(services.uninstall(List.of(ServiceKind.AGENT), true)).isZero();
        assertThat(layout.workDir(ServiceKind.AGENT)).doesNotExist();
        assertThat(layout.workDir(ServiceKind.BRIDGE)).exists();
        assertThat(printed()).contains("legate-agent: its data removed (" + layout.workDir(ServiceKind.AGENT) + ")");
        // Nothing was installed, so the manager had nothing to be told.
        assertThat(fake.calls()).hasSize(told);

        assertThat(services.uninstall(List.of(), true)).isZero();
        assertThat(layout.workDir(ServiceKind.BRIDGE)).doesNotExist();
        assertThat(services.uninstall(List.of(), true)).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no Legate service is installed, and none left data");
    }

    @Test
    void purgeRefusesAWorkingFolderThatASymlinkSendsElsewhere() throws Exception {
        Services services = services(ServicePlatform.SYSTEMD);
        assertThat(services.install(List.of(ServiceKind.AGENT), null, false,
                ServiceEnvironment.from(Map.of(), Map.of(), List.of()), Map.of())).isZero();
        Path elsewhere = Files.createDirectories(dir.resolve("precious"));
        Files.writeString(elsewhere.resolve("keep"), "x");
        Path work = layout.workDir(ServiceKind.AGENT);
        try (Stream<Path> files = Files.walk(work)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Files.createSymbolicLink(work, elsewhere);
        assertThatThrownBy(() -> services.uninstall(List.of(), true))
                .isInstanceOf(IOException.class).hasMessageContaining("outside");
        assertThat(elsewhere.resolve("keep")).exists();
    }

    @Test
    void onMacOsTheJobIsBootstrappedIntoTheUsersDomainAndStoppedByBootingItOut() throws Exception {
        Services services = services(ServicePlatform.LAUNCHD);
        assertThat(services.install(List.of(ServiceKind.AGENT), null, false,
                ServiceEnvironment.from(Map.of(), Map.of(), List.of()), Map.of())).isZero();
        Path plist = layout.unitDir().resolve("dev.legate.agent.plist");
        assertThat(LaunchdPlistTest.parse(Files.readString(plist))).containsEntry("Label", "dev.legate.agent");
        assertThat(services.restart(List.of())).isZero();
        assertThat(services.stop(List.of())).isZero();
        out.reset();
        services.status(List.of());
        assertThat(printed()).contains("launchd: not loaded");
        assertThat(services.start(List.of())).isZero();
        assertThat(services.logs(Optional.empty(), true)).isZero();
        assertThat(fake.calls()).containsSubsequence(
                "launchctl bootstrap gui/501 " + plist,
                "launchctl kickstart -k gui/501/dev.legate.agent",
                "launchctl bootout gui/501/dev.legate.agent",
                "launchctl bootstrap gui/501 " + plist,
                "tail -n 200 -F " + layout.logDir().resolve("agent.log"));
    }

    @Test
    void aMissingServiceManagerIsNamedInsteadOfFailingObscurely() throws Exception {
        Services services = new Services(ServicePlatform.SYSTEMD, layout, new HostCommands(Map.of("PATH", dir.toString())),
                "alice", "501", Settings::parseDotenv, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(services.install(List.of(ServiceKind.AGENT), null, false,
                ServiceEnvironment.from(Map.of(), Map.of(), List.of()), Map.of())).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("systemctl is not on PATH");
        assertThat(layout.unitDir().resolve("legate-agent.service")).doesNotExist();
    }

    @Test
    void aValueNoEnvFileCanCarryIsRefusedAtInstallWithItsKey() throws Exception {
        Services services = services(ServicePlatform.SYSTEMD);
        int rc = services.install(List.of(ServiceKind.AGENT), null, false,
                ServiceEnvironment.from(Map.of("AGENT_NAME", "it's \"x\""), Map.of(), List.of()), Map.of());
        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("AGENT_NAME").contains("both a single and a double quote");
    }
}
