package legate.cli.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A launchd LaunchAgent for one service: started at login, started again when it exits with a
 * failure (not after a clean stop), no faster than the throttle interval. Configuration and secrets
 * stay in the service's {@code .env} (mode 600) in its working folder; the plist holds paths and
 * the variables the launcher needs, since launchd starts a job with a bare PATH.
 */
record LaunchdPlist(ServiceKind kind, ServiceLayout layout, Map<String, String> environment, Duration stopTimeout) {
    /** launchd's least time between two starts of the job. */
    static final Duration THROTTLE = Duration.ofSeconds(10);

    String fileName() {
        return kind.launchdLabel() + ".plist";
    }

    String logFile() {
        return layout.logDir().resolve(kind.id() + ".log").toString();
    }

    String render() {
        List<String> l = new ArrayList<>();
        l.add("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        l.add("<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">");
        l.add("<!-- Written by `legate service install`; `legate service uninstall` removes it. -->");
        l.add("<plist version=\"1.0\">");
        l.add("<dict>");
        l.add("  <key>Label</key>");
        l.add("  <string>" + kind.launchdLabel() + "</string>");
        l.add("  <key>ProgramArguments</key>");
        l.add("  <array>");
        l.add("    <string>" + UnitValue.xml("the launcher path", layout.launcher().toString()) + "</string>");
        for (String arg : kind.arguments()) {
            l.add("    <string>" + UnitValue.xml("an argument", arg) + "</string>");
        }
        l.add("  </array>");
        l.add("  <key>WorkingDirectory</key>");
        l.add("  <string>" + UnitValue.xml("the working folder", layout.workDir(kind).toString()) + "</string>");
        if (!environment.isEmpty()) {
            l.add("  <key>EnvironmentVariables</key>");
            l.add("  <dict>");
            for (Map.Entry<String, String> e : environment.entrySet()) {
                l.add("    <key>" + UnitValue.xml("a variable name", e.getKey()) + "</key>");
                l.add("    <string>" + UnitValue.xml(e.getKey(), e.getValue()) + "</string>");
            }
            l.add("  </dict>");
        }
        l.add("  <key>RunAtLoad</key>");
        l.add("  <true/>");
        l.add("  <key>KeepAlive</key>");
        l.add("  <dict>");
        l.add("    <key>SuccessfulExit</key>");
        l.add("    <false/>");
        l.add("  </dict>");
        l.add("  <key>ThrottleInterval</key>");
        l.add("  <integer>" + THROTTLE.toSeconds() + "</integer>");
        l.add("  <key>ExitTimeOut</key>");
        l.add("  <integer>" + stopTimeout.toSeconds() + "</integer>");
        l.add("  <key>ProcessType</key>");
        l.add("  <string>Background</string>");
        l.add("  <key>StandardOutPath</key>");
        l.add("  <string>" + UnitValue.xml("the log path", logFile()) + "</string>");
        l.add("  <key>StandardErrorPath</key>");
        l.add("  <string>" + UnitValue.xml("the log path", logFile()) + "</string>");
        l.add("</dict>");
        l.add("</plist>");
        return String.join("\n", l) + "\n";
    }
}
