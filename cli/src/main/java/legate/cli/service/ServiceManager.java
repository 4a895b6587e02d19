package legate.cli.service;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The commands of one platform's service manager, for a service whose file is already written.
 * Each operation returns what the manager answered, so the command can report a refusal in the
 * manager's own words.
 */
sealed interface ServiceManager permits ServiceManager.Systemd, ServiceManager.Launchd {

    /** The manager's command this platform needs, for the message when it is missing. */
    String tool();

    /** A new or changed service file: the manager reads it, the service is enabled and started. */
    HostCommands.Result installed(ServiceKind kind, Path file);

    HostCommands.Result start(ServiceKind kind, Path file);

    HostCommands.Result stop(ServiceKind kind);

    HostCommands.Result restart(ServiceKind kind, Path file);

    /** Stopped and disabled, before its file is removed. */
    HostCommands.Result removing(ServiceKind kind);

    /** The manager forgets the removed file. */
    HostCommands.Result removed();

    /** The manager's view in one line: state, process, restarts. */
    String state(ServiceKind kind);

    /** The service's output, the last lines or followed; the exit status of the viewer. */
    int logs(ServiceKind kind, boolean follow, Path logFile) throws InterruptedException;

    /** Something the person should do for the services to run as they expect (a hint), if any. */
    Optional<String> advice(String user);

    /** Linux: systemd's user instance. */
    record Systemd(HostCommands host) implements ServiceManager {
        @Override
        public String tool() {
            return "systemctl";
        }

        private HostCommands.Result systemctl(String... args) {
            List<String> c = new ArrayList<>(List.of("systemctl", "--user"));
            c.addAll(List.of(args));
            return host.run(c);
        }

        private static String unit(ServiceKind kind) {
            return kind.unitName() + ".service";
        }

        @Override
        public HostCommands.Result installed(ServiceKind kind, Path file) {
            HostCommands.Result reload = systemctl("daemon-reload");
            if (!reload.ok()) {
                return reload;
            }
            // enable --now starts a stopped unit but leaves a running one on its old file.
            HostCommands.Result enable = systemctl("enable", unit(kind));
            return enable.ok() ? systemctl("restart", unit(kind)) : enable;
        }

        @Override
        public HostCommands.Result start(ServiceKind kind, Path file) {
            return systemctl("start", unit(kind));
        }

        @Override
        public HostCommands.Result stop(ServiceKind kind) {
            return systemctl("stop", unit(kind));
        }

        @Override
        public HostCommands.Result restart(ServiceKind kind, Path file) {
            return systemctl("restart", unit(kind));
        }

        @Override
        public HostCommands.Result removing(ServiceKind kind) {
            return systemctl("disable", "--now", unit(kind));
        }

        @Override
        public HostCommands.Result removed() {
            return systemctl("daemon-reload");
        }

        @Override
        public String state(ServiceKind kind) {
            HostCommands.Result r = systemctl("show", unit(kind),
                    "--property=LoadState,ActiveState,SubState,MainPID,NRestarts,Result");
            if (!r.ok()) {
                return "systemd: " + r.output();
            }
            Map<String, String> p = new HashMap<>();
            for (String line : r.output().split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    p.put(line.substring(0, eq), line.substring(eq + 1).strip());
                }
            }
            StringBuilder b = new StringBuilder("systemd: ").append(p.getOrDefault("ActiveState", "?"))
                    .append(" (").append(p.getOrDefault("SubState", "?")).append(")");
            String pid = p.getOrDefault("MainPID", "0");
            if (!pid.equals("0")) {
                b.append(", pid ").append(pid);
            }
            String restarts = p.getOrDefault("NRestarts", "0");
            if (!restarts.equals("0")) {
                b.append(", restarted ").append(restarts).append(" time(s)");
            }
            String result = p.getOrDefault("Result", "success");
            if (!result.equals("success")) {
                b.append(", last result ").append(result);
            }
            return b.toString();
        }

        @Override
        public int logs(ServiceKind kind, boolean follow, Path logFile) throws InterruptedException {
            List<String> c = new ArrayList<>(List.of("journalctl", "--user-unit", unit(kind), "--no-pager",
                    "-n", "200"));
            if (follow) {
                c.add("-f");
            }
            return host.attach(c);
        }

        @Override
        public Optional<String> advice(String user) {
            HostCommands.Result r = host.run(List.of("loginctl", "show-user", user, "--property=Linger", "--value"));
            if (r.ok() && r.output().strip().equals("no")) {
                return Optional.of("Lingering is off for " + user + ": the services stop when you log out and start "
                        + "only at your next login. To keep them running, and start them at boot: loginctl enable-linger "
                        + user);
            }
            return Optional.empty();
        }
    }

    /** macOS: launchd's per-user GUI domain. */
    record Launchd(HostCommands host, String uid) implements ServiceManager {
        @Override
        public String tool() {
            return "launchctl";
        }

        private String target(ServiceKind kind) {
            return "gui/" + uid + "/" + kind.launchdLabel();
        }

        private boolean loaded(ServiceKind kind) {
            return host.run(List.of("launchctl", "print", target(kind))).ok();
        }

        @Override
        public HostCommands.Result installed(ServiceKind kind, Path file) {
            if (loaded(kind)) {
                // A loaded job keeps its old definition until it is booted out.
                host.run(List.of("launchctl", "bootout", target(kind)));
            }
            return host.run(List.of("launchctl", "bootstrap", "gui/" + uid, file.toString()));
        }

        @Override
        public HostCommands.Result start(ServiceKind kind, Path file) {
            if (!loaded(kind)) {
                return host.run(List.of("launchctl", "bootstrap", "gui/" + uid, file.toString()));
            }
            return host.run(List.of("launchctl", "kickstart", target(kind)));
        }

        @Override
        public HostCommands.Result stop(ServiceKind kind) {
            // KeepAlive would start a killed job again: stopping it for good means unloading it.
            return host.run(List.of("launchctl", "bootout", target(kind)));
        }

        @Override
        public HostCommands.Result restart(ServiceKind kind, Path file) {
            if (!loaded(kind)) {
                return host.run(List.of("launchctl", "bootstrap", "gui/" + uid, file.toString()));
            }
            return host.run(List.of("launchctl", "kickstart", "-k", target(kind)));
        }

        @Override
        public HostCommands.Result removing(ServiceKind kind) {
            return loaded(kind) ? host.run(List.of("launchctl", "bootout", target(kind)))
                    : new HostCommands.Result(0, "");
        }

        @Override
        public HostCommands.Result removed() {
            return new HostCommands.Result(0, "");
        }

        @Override
        public String state(ServiceKind kind) {
            HostCommands.Result r = host.run(List.of("launchctl", "print", target(kind)));
            if (!r.ok()) {
                return "launchd: not loaded";
            }
            String state = "?", pid = null, exit = null;
            for (String line : r.output().split("\n")) {
                String t = line.strip();
                if (t.startsWith("state = ")) {
                    state = t.substring("state = ".length());
                } else if (t.startsWith("pid = ")) {
                    pid = t.substring("pid = ".length());
                } else if (t.startsWith("last exit code = ")) {
                    exit = t.substring("last exit code = ".length());
                }
            }
            return "launchd: " + state + (pid != null ? ", pid " + pid : "")
                    + (exit != null && !exit.startsWith("0") ? ", last exit " + exit : "");
        }

        @Override
        public int logs(ServiceKind kind, boolean follow, Path logFile) throws InterruptedException {
            return host.attach(follow ? List.of("tail", "-n", "200", "-F", logFile.toString())
                    : List.of("tail", "-n", "200", logFile.toString()));
        }

        @Override
        public Optional<String> advice(String user) {
            return Optional.empty();
        }
    }
}
