package legate.cli.service;

import java.util.Locale;

/** The service manager a user's services run under. */
public enum ServicePlatform {
    /** Linux: systemd user units, {@code systemctl --user}. */
    SYSTEMD,
    /** macOS: LaunchAgents, {@code launchctl}. */
    LAUNCHD;

    /** The platform of this machine, or null when Legate knows no service manager for it. */
    public static ServicePlatform current() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.contains("linux")) {
            return SYSTEMD;
        }
        if (os.contains("mac") || os.contains("darwin")) {
            return LAUNCHD;
        }
        return null;
    }
}
