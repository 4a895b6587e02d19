package legate.cli.service;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@code legate service}: Legate's servers as services of the user's own service manager, so they
 * run after a reboot and start again after a crash. Each operation works on the named services, or
 * on every installed one; a service is installed when its unit (or plist) is where the manager
 * looks for it.
 */
public final class Services {
    /** Exit status when a service is installed but a live check fails. */
    public static final int UNHEALTHY = 3;

    private final ServicePlatform platform;
    private final ServiceLayout layout;
    private final ServiceManager manager;
    private final HostCommands host;
    private final String user;
    private final Function<String, Map<String, String>> dotenvReader;
    private final PrintStream out;
    private final PrintStream err;
    private final ServiceProbe probe = new ServiceProbe();

    /**
     * @param uid the numeric user id (launchd's domain)
     * @param dotenvReader reads a {@code .env} text the way Legate does
     */
    public Services(ServicePlatform platform, ServiceLayout layout, HostCommands host, String user, String uid,
                    Function<String, Map<String, String>> dotenvReader, PrintStream out, PrintStream err) {
        this.platform = platform;
        this.layout = layout;
        this.host = host;
        this.user = user;
        this.dotenvReader = dotenvReader;
        this.out = out;
        this.err = err;
        this.manager = switch (platform) {
            case SYSTEMD -> new ServiceManager.Systemd(host);
            case LAUNCHD -> new ServiceManager.Launchd(host, uid);
        };
    }

    /** The file that defines {@code kind} for the manager. */
    Path serviceFile(ServiceKind kind) {
        return layout.unitDir().resolve(switch (platform) {
            case SYSTEMD -> kind.unitName() + ".service";
            case LAUNCHD -> kind.launchdLabel() + ".plist";
        });
    }

    List<ServiceKind> installed() {
        return Stream.of(ServiceKind.values()).filter(k -> Files.isRegularFile(serviceFile(k))).toList();
    }

    private boolean managerMissing() {
        if (host.available(manager.tool())) {
            return false;
        }
        err.println("legate service: " + manager.tool() + " is not on PATH; "
                + (platform == ServicePlatform.SYSTEMD ? "services need systemd's user instance (systemctl --user)"
                        : "services need launchd (launchctl)"));
        return true;
    }

    /**
     * Writes each service's configuration, unit and working folder, then has the manager enable
     * and start it. {@code withMcp} adds the MCP server, pointed at the first service when the
     * configuration names no agent for it.
     */
    public int install(List<ServiceKind> kinds, String backend, boolean withMcp, ServiceEnvironment source,
                       Map<String, String> unitVariables) throws IOException {
        if (managerMissing()) {
            return 1;
        }
        LinkedHashSet<ServiceKind> all = new LinkedHashSet<>(kinds);
        if (withMcp) {
            all.add(ServiceKind.MCP);
        }
        ServiceKind primary = kinds.stream().filter(k -> k != ServiceKind.MCP).findFirst().orElse(null);
        Files.createDirectories(layout.unitDir());
        Files.createDirectories(layout.logDir());
        int rc = 0;
        for (ServiceKind kind : all) {
            ServiceEnvironment env = configuration(kind, source, backend, withMcp ? primary : null);
            Path work = layout.workDir(kind);
            Files.createDirectories(work);
            Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx------"));
            String rendered;
            try {
                rendered = switch (platform) {
                    case SYSTEMD -> new SystemdUnit(kind, layout, unitVariables, env.stopTimeout()).render();
                    case LAUNCHD -> new LaunchdPlist(kind, layout, unitVariables, env.stopTimeout()).render();
                };
                env.write(layout.envFile(kind));
            } catch (IllegalArgumentException e) {
                err.println("legate service: " + kind.id() + ": " + e.getMessage());
                return 2;
            }
            Path file = serviceFile(kind);
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
            HostCommands.Result started = manager.installed(kind, file);
            if (started.ok()) {
                out.println(kind.unitName() + ": installed and started");
            } else {
                out.println(kind.unitName() + ": installed, but " + manager.tool() + " refused to start it: "
                        + started.output());
                rc = 1;
            }
            out.println("  service file:  " + file);
            out.println("  configuration: " + layout.envFile(kind) + " (mode 600)");
            out.println("  data and logs: " + work);
        }
        manager.advice(user).ifPresent(a -> out.println(a));
        out.println("Check it with: legate service status" + (platform == ServicePlatform.SYSTEMD
                ? "; its output: legate service logs " + all.iterator().next().id() : ""));
        if (all.contains(ServiceKind.MCP)) {
            out.println();
            McpConnection.of(read(ServiceKind.MCP)).lines().forEach(out::println);
        }
        return rc;
    }

    /** The service's own configuration: the person's, with what this kind of service pins. */
    private ServiceEnvironment configuration(ServiceKind kind, ServiceEnvironment source, String backend,
                                             ServiceKind mcpFront) {
        ServiceEnvironment env = source;
        if (kind != ServiceKind.MCP && source.get("DATA_DIR").isEmpty()) {
            // A service's working folder is its own, so its store needs no folder per command: it
            // stays in data/ there, where every service installed before that default keeps its tasks.
            env = env.with("DATA_DIR", "data");
        }
        if (kind == ServiceKind.BRIDGE && backend != null) {
            env = env.with("ACP_AGENT", backend);
        }
        if (kind == ServiceKind.MCP) {
            // The token is pinned so a restart keeps the clients connected: the one configured, the
            // one a previous install pinned, or a new one.
            String token = source.get("MCP_TOKEN").or(() -> installedValue(ServiceKind.MCP, "MCP_TOKEN"))
                    .orElseGet(ServiceEnvironment::newToken);
            env = env.with("MCP_TOKEN", token);
            if (mcpFront != null && source.get("A2A_URL").isEmpty() && source.get("A2A_AGENTS").isEmpty()) {
                ServiceEnvironment front = configuration(mcpFront, source, backend, null);
                env = env.with("A2A_URL", ServiceAddress.of(mcpFront, front).localBase() + "/");
            }
        }
        return env;
    }

    private Optional<String> installedValue(ServiceKind kind, String key) {
        try {
            return read(kind).get(key);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** An installed service's configuration, read back from its {@code .env}. */
    ServiceEnvironment read(ServiceKind kind) throws IOException {
        Path file = layout.envFile(kind);
        if (!Files.isRegularFile(file)) {
            return new ServiceEnvironment(Map.of());
        }
        return new ServiceEnvironment(dotenvReader.apply(Files.readString(file, StandardCharsets.UTF_8)));
    }

    /** The services named, or every installed one; null (after saying why) when that is none. */
    private List<ServiceKind> targets(List<ServiceKind> named) {
        List<ServiceKind> installed = installed();
        if (named.isEmpty()) {
            if (installed.isEmpty()) {
                err.println("legate service: no Legate service is installed (legate service install agent|bridge|mcp)");
                return null;
            }
            return installed;
        }
        for (ServiceKind k : named) {
            if (!installed.contains(k)) {
                err.println("legate service: " + k.unitName() + " is not installed (legate service install " + k.id() + ")");
                return null;
            }
        }
        return named;
    }

    public int start(List<ServiceKind> named) {
        return each(named, "started", k -> manager.start(k, serviceFile(k)));
    }

    public int stop(List<ServiceKind> named) {
        return each(named, "stopped", manager::stop);
    }

    public int restart(List<ServiceKind> named) {
        return each(named, "restarted", k -> manager.restart(k, serviceFile(k)));
    }

    private int each(List<ServiceKind> named, String done, Function<ServiceKind, HostCommands.Result> action) {
        if (managerMissing()) {
            return 1;
        }
        List<ServiceKind> kinds = targets(named);
        if (kinds == null) {
            return 1;
        }
        int rc = 0;
        for (ServiceKind k : kinds) {
            HostCommands.Result r = action.apply(k);
            if (r.ok()) {
                out.println(k.unitName() + ": " + done);
            } else {
                out.println(k.unitName() + ": " + manager.tool() + " refused: " + r.output());
                rc = 1;
            }
        }
        return rc;
    }

    /** The manager's view and the live checks of each service: 0 when every check passes. */
    public int status(List<ServiceKind> named) throws IOException, InterruptedException {
        if (managerMissing()) {
            return 1;
        }
        List<ServiceKind> kinds = targets(named);
        if (kinds == null) {
            return 1;
        }
        boolean healthy = true;
        for (ServiceKind k : kinds) {
            out.println(k.unitName() + "  " + manager.state(k));
            for (String line : probe.check(k, read(k))) {
                out.println("  " + line);
                healthy &= line.startsWith("ok");
            }
        }
        manager.advice(user).ifPresent(out::println);
        return healthy ? 0 : UNHEALTHY;
    }

    public int logs(Optional<ServiceKind> named, boolean follow) throws InterruptedException {
        List<ServiceKind> kinds = targets(named.map(List::of).orElse(List.of()));
        if (kinds == null) {
            return 1;
        }
        if (kinds.size() > 1) {
            err.println("legate service logs: several services are installed; name one: "
                    + String.join(", ", kinds.stream().map(ServiceKind::id).toList()));
            return 2;
        }
        ServiceKind k = kinds.get(0);
        return manager.logs(k, follow, layout.logDir().resolve(k.id() + ".log"));
    }

    /**
     * Stops, disables and removes the units; the working folders (data, tokens) stay unless {@code purge}.
     * With {@code purge}, the working folder of a service uninstalled earlier goes too: the plain
     * uninstall's own hint is to run {@code --purge} next, when no unit is left to find.
     */
    public int uninstall(List<ServiceKind> named, boolean purge) throws IOException {
        if (managerMissing()) {
            return 1;
        }
        List<ServiceKind> kinds = purge ? purgeTargets(named) : targets(named);
        if (kinds == null) {
            return 1;
        }
        int rc = 0;
        List<ServiceKind> installed = installed();
        List<ServiceKind> removed = kinds.stream().filter(installed::contains).toList();
        for (ServiceKind k : removed) {
            HostCommands.Result r = manager.removing(k);
            if (!r.ok()) {
                out.println(k.unitName() + ": " + manager.tool() + " could not stop it: " + r.output());
                rc = 1;
            }
            Files.deleteIfExists(serviceFile(k));
        }
        if (!removed.isEmpty()) {
            manager.removed();
        }
        for (ServiceKind k : kinds) {
            Path work = layout.workDir(k);
            if (purge) {
                deleteTree(work);
                out.println(k.unitName() + (removed.contains(k) ? ": removed, with its data (" : ": its data removed (")
                        + work + ")");
            } else {
                out.println(k.unitName() + ": removed; its configuration and data stay in " + work
                        + " (legate service uninstall --purge removes them)");
            }
        }
        return rc;
    }

    /**
     * What a purge works on: the services named, or every one, that are installed or have a
     * working folder left behind; null (after saying why) when that is none.
     */
    private List<ServiceKind> purgeTargets(List<ServiceKind> named) {
        List<ServiceKind> installed = installed();
        List<ServiceKind> among = named.isEmpty() ? List.of(ServiceKind.values()) : named;
        List<ServiceKind> found = among.stream()
                .filter(k -> installed.contains(k) || Files.exists(layout.workDir(k), LinkOption.NOFOLLOW_LINKS))
                .toList();
        if (found.isEmpty()) {
            err.println("legate service: no Legate service is installed, and none left data in " + layout.home());
            return null;
        }
        if (!named.isEmpty() && found.size() < named.size()) {
            ServiceKind absent = named.stream().filter(k -> !found.contains(k)).findFirst().orElseThrow();
            err.println("legate service: " + absent.unitName() + " is not installed and left no data in "
                    + layout.workDir(absent));
            return null;
        }
        return found;
    }

    public int token() throws IOException {
        if (!installed().contains(ServiceKind.MCP)) {
            err.println("legate service: the MCP server is not installed (legate service install mcp, or install "
                    + "agent|bridge --with-mcp)");
            return 1;
        }
        McpConnection.of(read(ServiceKind.MCP)).lines().forEach(out::println);
        return 0;
    }

    /** Deletes a service's working folder, which must be one this layout made (checked after resolving links). */
    private void deleteTree(Path work) throws IOException {
        if (!Files.exists(work)) {
            return;
        }
        Path real = work.toRealPath();
        if (!real.startsWith(layout.home().toRealPath())) {
            throw new IOException(work + " resolves outside " + layout.home() + "; not removed");
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(real)) {
            walk.sorted(Comparator.reverseOrder()).forEach(all::add);
        }
        for (Path p : all) {
            Files.delete(p);
        }
    }
}
