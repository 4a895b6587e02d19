package legate.cli.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd user units {@code legate service install} writes, read back by systemd's own parser
 * ({@code systemd-analyze verify}), hostile paths and values included: a unit systemd reads
 * differently from what was meant would start the wrong program, or the right one in the wrong
 * folder.
 */
class SystemdUnitTest {
    /** Every character systemd gives a meaning in a unit: specifiers, variables, quotes, escapes, spaces. */
    static final String HOSTILE = "we%h $HOME \"q\" 'a' \\x & <b> #c;d";
    /** The same without what systemd refuses in a program's path at any escaping (quotes, backslash). */
    static final String HOSTILE_PROGRAM = "we%h $HOME & <b> #c;d";

    @TempDir
    Path dir;

    private ServiceLayout layout(Path launcher) {
        return new ServiceLayout(launcher, dir.resolve("state " + HOSTILE), dir.resolve("units"), dir.resolve("logs"));
    }

    private Path executable(String name) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void eachKindHasTheRestartPolicyTheStopSignalAndAStopTimeoutLongerThanTheDrain() throws IOException {
        for (ServiceKind kind : ServiceKind.values()) {
            String unit = new SystemdUnit(kind, layout(executable("legate")), Map.of(), Duration.ofSeconds(30)).render();
            Map<String, List<String>> service = section(unit, "Service");
            assertThat(service.get("Restart")).containsExactly("on-failure");
            assertThat(service.get("RestartSec")).containsExactly("5");
            assertThat(service.get("KillSignal")).containsExactly("SIGTERM");
            // DEFECT (issue 30): bin/legate stopped while it builds or trains exits 143 (LauncherSignalTest);
            // the unit recorded that `legate service stop` as a failure.
            assertThat(service.get("SuccessExitStatus")).containsExactly("143");
            assertThat(service.get("TimeoutStopSec")).containsExactly("30");
            assertThat(service.get("ExecStart")).singleElement().asString().endsWith(" \"" + kind.id() + "\"");
            assertThat(section(unit, "Install").get("WantedBy")).containsExactly("default.target");
        }
    }

    @Test
    void theMcpUnitIsOrderedAfterTheAgentAndBridgeWithoutRequiringThem() throws IOException {
        Map<String, List<String>> unit = section(
                new SystemdUnit(ServiceKind.MCP, layout(executable("legate")), Map.of(), Duration.ofSeconds(30)).render(),
                "Unit");
        assertThat(unit.get("After")).singleElement().asString().contains("legate-agent.service", "legate-bridge.service");
        assertThat(unit).doesNotContainKeys("Requires", "BindsTo", "Requisite");
        assertThat(unit.get("Wants")).containsExactly("network-online.target");
    }

    @Test
    void hostilePathsAndVariablesSurviveSystemdsOwnParser() throws IOException {
        Path launcher = executable("legate " + HOSTILE_PROGRAM);
        ServiceLayout layout = layout(launcher);
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("PATH", "/usr/bin:/bin:" + dir.resolve(HOSTILE));
        vars.put("LEGATE_JAVA_OPTS", "-Dx=\"%p\" -Dy=$z");
        for (ServiceKind kind : ServiceKind.values()) {
            Files.createDirectories(layout.workDir(kind));
            SystemdUnit unit = new SystemdUnit(kind, layout, vars, Duration.ofSeconds(30));
            Path file = Files.createDirectories(dir.resolve("units")).resolve(unit.fileName());
            Files.writeString(file, unit.render());
            // systemd-analyze checks that ExecStart names an executable and WorkingDirectory a
            // folder after its own unquoting and specifier expansion: a wrong escape names another file.
            Path runtime = Files.createDirectories(dir.resolve("runtime"));
            ChildRun verify = ChildCommand.of("systemd-analyze", "verify", "--user", file.toString())
                    .env("XDG_RUNTIME_DIR", runtime.toString()).run(Duration.ofSeconds(60));
            assertThat(verify.exitCode()).as(verify.output()).isZero();
            assertThat(verify.output()).as("systemd's warnings about the unit").doesNotContain(file.getFileName().toString());
            Map<String, List<String>> service = section(unit.render(), "Service");
            assertThat(service.get("ExecStart")).singleElement().asString()
                    .startsWith("\"" + launcher.toString().replace("%", "%%") + "\"");
            // systemd.unit(5): specifiers are expanded in WorkingDirectory too; "%%" is one "%".
            assertThat(service.get("WorkingDirectory"))
                    .containsExactly(layout.workDir(kind).toString().replace("%", "%%"));
        }
    }

    @Test
    void aProgramPathSystemdWouldRefuseIsRefusedAtInstallNamingWhy() throws IOException {
        SystemdUnit unit = new SystemdUnit(ServiceKind.AGENT, layout(executable("legate \"quoted\"")), Map.of(),
                Duration.ofSeconds(30));
        assertThatThrownBy(unit::render).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("launcher path").hasMessageContaining("quote or a backslash");
    }

    @Test
    void aLineBreakInAValueIsRefusedNamingTheKeyInsteadOfWritingASecondLine() throws IOException {
        SystemdUnit unit = new SystemdUnit(ServiceKind.AGENT, layout(executable("legate")),
                Map.of("LEGATE_JAVA_OPTS", "-Xmx1g\nExecStartPre=/bin/rm -rf ~"), Duration.ofSeconds(30));
        assertThatThrownBy(unit::render).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LEGATE_JAVA_OPTS").hasMessageContaining("line break");
    }

    /** The key/value lines of one [section], as systemd's format defines them (comments and blanks skipped). */
    static Map<String, List<String>> section(String unit, String name) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        String current = null;
        for (String line : unit.split("\n")) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                current = line.substring(1, line.length() - 1);
                continue;
            }
            int eq = line.indexOf('=');
            assertThat(eq).as("a key=value line: " + line).isPositive();
            if (name.equals(current)) {
                out.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>()).add(line.substring(eq + 1));
            }
        }
        return out;
    }
}
