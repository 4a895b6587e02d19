package legate.cli.service;

import java.util.List;
import java.util.Locale;

/** What a Legate service runs: each is one unit (systemd) or one agent (launchd), in a folder of its own. */
public enum ServiceKind {
    AGENT("Legate A2A agent (Revisor)"),
    BRIDGE("Legate A2A bridge to a coding agent"),
    MCP("Legate MCP server for A2A agents");

    private final String description;

    ServiceKind(String description) {
        this.description = description;
    }

    /** {@code agent}, {@code bridge} or {@code mcp}: the subcommand and the name's suffix. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The systemd unit, without its {@code .service}. */
    public String unitName() {
        return "legate-" + id();
    }

    /** The launchd label, reverse-DNS as launchd's own agents are named. */
    public String launchdLabel() {
        return "dev.legate." + id();
    }

    public String description() {
        return description;
    }

    /** The arguments after the launcher: the subcommand; everything else is in the service's {@code .env}. */
    List<String> arguments() {
        return List.of(id());
    }

    public static ServiceKind parse(String s) {
        for (ServiceKind k : values()) {
            if (k.id().equals(s)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown service '" + s + "': agent, bridge or mcp");
    }
}
