package legate.cli.service;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where an installed service lives. Each kind gets a working folder of its own under {@code home}
 * (its {@code .env}, mode 600, holding the configuration and secrets; its data folder; its logs),
 * because two servers must not share one SQLite file or one default port; the unit or plist that
 * starts it goes where the service manager looks for a user's services.
 *
 * @param launcher the command a unit runs: {@code bin/legate} of the installation that installed it
 * @param home the parent of the services' working folders
 * @param unitDir systemd's user unit folder, or launchd's LaunchAgents folder
 * @param logDir where launchd writes a service's output (systemd keeps it in the journal)
 */
public record ServiceLayout(Path launcher, Path home, Path unitDir, Path logDir) {

    /** The working folder of one service. */
    public Path workDir(ServiceKind kind) {
        return home.resolve(kind.id());
    }

    /** The service's configuration, read by Legate as the {@code .env} of its working folder. */
    public Path envFile(ServiceKind kind) {
        return workDir(kind).resolve(".env");
    }

    /**
     * The usual places for the user running this: XDG folders on Linux (systemd user units in
     * {@code ~/.config/systemd/user}, state in {@code ~/.local/state/legate}), the Library on macOS.
     */
    public static ServiceLayout forUser(ServicePlatform platform, Path launcher, Map<String, String> env, Path userHome) {
        return switch (platform) {
            case SYSTEMD -> {
                Path config = xdg(env, "XDG_CONFIG_HOME", userHome.resolve(".config"));
                Path state = xdg(env, "XDG_STATE_HOME", userHome.resolve(".local/state"));
                Path home = state.resolve("legate");
                yield new ServiceLayout(launcher, home, config.resolve("systemd/user"), home.resolve("logs"));
            }
            case LAUNCHD -> new ServiceLayout(launcher, userHome.resolve("Library/Application Support/Legate"),
                    userHome.resolve("Library/LaunchAgents"), userHome.resolve("Library/Logs/Legate"));
        };
    }

    private static Path xdg(Map<String, String> env, String key, Path fallback) {
        String v = env.get(key);
        // XDG base directories: a relative value is invalid and must be ignored.
        return v != null && !v.isBlank() && Path.of(v).isAbsolute() ? Path.of(v) : fallback;
    }
}
