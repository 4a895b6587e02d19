package legate.cli.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A systemd user unit for one service. Output goes to the journal; configuration and secrets stay
 * in the service's {@code .env} (mode 600), which Legate reads from its working folder, so the unit
 * holds only paths and the few variables the launcher needs to find Java and Node.js.
 *
 * @param environment variables set in the unit (not secret: {@code PATH}, {@code JAVA_HOME})
 * @param stopTimeout how long systemd waits after SIGTERM before SIGKILL: longer than the server's
 *     own drain, so a stop never cuts a turn that would have finished
 */
record SystemdUnit(ServiceKind kind, ServiceLayout layout, Map<String, String> environment, Duration stopTimeout) {
    /** systemd's restart delay: long enough not to spin on a port still held, short enough to go unnoticed. */
    static final Duration RESTART_DELAY = Duration.ofSeconds(5);

    String fileName() {
        return kind.unitName() + ".service";
    }

    String render() {
        List<String> lines = new ArrayList<>();
        lines.add("# Written by `legate service install`; `legate service uninstall` removes it.");
        lines.add("# Configuration: " + UnitValue.systemdPlain("the working folder", layout.envFile(kind).toString()));
        lines.add("[Unit]");
        lines.add("Description=" + UnitValue.systemdPlain("the description", kind.description()));
        if (kind == ServiceKind.MCP) {
            // Started after an agent or bridge on the same machine when there is one, so its first
            // card fetch finds it; not Requires=, since it can front agents anywhere.
            lines.add("After=network-online.target " + ServiceKind.AGENT.unitName() + ".service "
                    + ServiceKind.BRIDGE.unitName() + ".service");
        } else {
            lines.add("After=network-online.target");
        }
        lines.add("Wants=network-online.target");
        lines.add("StartLimitIntervalSec=300");
        lines.add("StartLimitBurst=5");
        lines.add("");
        lines.add("[Service]");
        lines.add("Type=exec");
        lines.add("WorkingDirectory=" + UnitValue.systemdPlain("the working folder", layout.workDir(kind).toString()));
        for (Map.Entry<String, String> e : environment.entrySet()) {
            lines.add("Environment=" + UnitValue.systemdQuoted(e.getKey(), e.getKey() + "=" + e.getValue()));
        }
        StringBuilder exec = new StringBuilder("ExecStart=")
                .append(UnitValue.systemdExecutable("the launcher path", layout.launcher().toString()));
        for (String arg : kind.arguments()) {
            exec.append(' ').append(UnitValue.systemdQuoted("an argument", arg));
        }
        lines.add(exec.toString());
        lines.add("Restart=on-failure");
        lines.add("RestartSec=" + RESTART_DELAY.toSeconds());
        lines.add("KillSignal=SIGTERM");
        // The JVM exits 0 after a SIGTERM (1 when turns were cut off), but bin/legate, the ExecStart,
        // exits 143 when stopped while it builds the jar (any kind) or records the start-up archive
        // (the agent's first start after an upgrade): a stop then is no failure either.
        lines.add("SuccessExitStatus=143");
        lines.add("TimeoutStopSec=" + stopTimeout.toSeconds());
        lines.add("");
        lines.add("[Install]");
        lines.add("WantedBy=default.target");
        return String.join("\n", lines) + "\n";
    }
}
