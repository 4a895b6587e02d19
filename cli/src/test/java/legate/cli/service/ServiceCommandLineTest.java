package legate.cli.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import legate.cli.Legate;
import legate.cli.Settings;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate service} as a person runs it, a real process with the fake manager first on its
 * PATH: the configuration in the folder it is run from becomes the service's, the unit starts the
 * checkout's own launcher, and {@code token} and {@code uninstall} find what {@code install} wrote.
 */
class ServiceCommandLineTest {

    @Test
    void installTokenAndUninstallFromTheCommandLine(@TempDir Path dir) throws Exception {
        FakeServiceManager fake = new FakeServiceManager(dir);
        Path cwd = Files.createDirectories(dir.resolve("project"));
        Files.writeString(cwd.resolve(".env"), "PORT=41999\nMCP_PORT=41998\nANTHROPIC_API_KEY='sk-from-dotenv'\n");
        ChildRun install = legate(dir, cwd, fake, "service", "install", "agent", "--with-mcp").run(Duration.ofSeconds(60));
        assertThat(install.exitCode()).as(install.output()).isZero();
        Path unit = dir.resolve("config/systemd/user/legate-agent.service");
        String text = Files.readString(unit);
        Path launcher = Path.of("..").toAbsolutePath().normalize().resolve("bin/legate");
        assertThat(text).contains("ExecStart=\"" + launcher + "\" \"agent\"")
                .contains("WorkingDirectory=" + dir.resolve("state/legate/agent"));
        Map<String, String> agentEnv = Settings.parseDotenv(Files.readString(dir.resolve("state/legate/agent/.env")));
        assertThat(agentEnv).containsEntry("PORT", "41999").containsEntry("ANTHROPIC_API_KEY", "sk-from-dotenv");
        String token = Settings.parseDotenv(Files.readString(dir.resolve("state/legate/mcp/.env"))).get("MCP_TOKEN");
        assertThat(install.stdout()).contains("Token: " + token);

        ChildRun shown = legate(dir, cwd, fake, "service", "token").run(Duration.ofSeconds(60));
        assertThat(shown.exitCode()).isZero();
        assertThat(shown.stdout()).contains("MCP endpoint: http://127.0.0.1:41998/mcp").contains("Token: " + token);

        ChildRun removed = legate(dir, cwd, fake, "service", "uninstall", "--purge").run(Duration.ofSeconds(60));
        assertThat(removed.exitCode()).as(removed.output()).isZero();
        assertThat(unit).doesNotExist();
        assertThat(dir.resolve("state/legate/agent")).doesNotExist();
        assertThat(fake.calls()).contains("systemctl --user disable --now legate-agent.service",
                "systemctl --user disable --now legate-mcp.service");
    }

    @Test
    void anUnknownServiceIsAUsageError(@TempDir Path dir) throws Exception {
        FakeServiceManager fake = new FakeServiceManager(dir);
        ChildRun r = ChildCommand.java(Legate.class, "service", "install", "database").in(dir).env(fake.env())
                .env("XDG_CONFIG_HOME", dir.resolve("config").toString()).run(Duration.ofSeconds(60));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("unknown service 'database'");
        assertThat(fake.calls()).isEmpty();
    }

    /** {@code legate ARGS} in {@code cwd}, its services' folders under {@code dir}, the fake manager on its PATH. */
    private static ChildCommand legate(Path dir, Path cwd, FakeServiceManager fake, String... args) {
        return ChildCommand.java(Legate.class, args).in(cwd).env(fake.env())
                .env("XDG_CONFIG_HOME", dir.resolve("config").toString())
                .env("XDG_STATE_HOME", dir.resolve("state").toString())
                .without("PORT", "MCP_PORT", "MCP_TOKEN", "A2A_URL", "A2A_AGENTS", "AGENT_NAME");
    }
}
