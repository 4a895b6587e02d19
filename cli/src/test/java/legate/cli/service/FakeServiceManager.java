package legate.cli.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * A service manager's commands as executables on a PATH of their own ({@code systemctl},
 * {@code journalctl}, {@code loginctl}, {@code launchctl}, {@code id}): each appends the arguments it
 * was run with to a log, one line per call, and answers the way the real one does for the questions
 * Legate asks (a unit's properties, a user's lingering, a job's state). Stands in where no real
 * manager can run, as in a container without systemd as its init.
 */
final class FakeServiceManager {
    final Path bin;
    final Path calls;

    FakeServiceManager(Path dir) throws IOException {
        this.bin = Files.createDirectories(dir.resolve("fake-bin"));
        this.calls = dir.resolve("calls.log");
        Files.writeString(calls, "");
        script("systemctl", """
                case "$*" in
                  *" show "*) printf 'LoadState=loaded\\nActiveState=active\\nSubState=running\\nMainPID=4242\\nNRestarts=1\\nResult=success\\n' ;;
                esac
                """);
        script("journalctl", "echo 'journal of' \"$@\"\n");
        script("loginctl", "echo no\n");
        script("launchctl", """
                case "$1" in
                  print) if [ -f "$(dirname "$0")/loaded-$(basename "$2")" ]; then printf '\\tstate = running\\n\\tpid = 777\\n'; else exit 113; fi ;;
                  bootstrap) touch "$(dirname "$0")/loaded-$(basename "$3" .plist)" ;;
                  bootout) rm -f "$(dirname "$0")/loaded-$(basename "$2")" ;;
                esac
                """);
        script("tail", "echo 'tail of' \"$@\"\n");
        script("id", "echo 501\n");
    }

    private void script(String name, String body) throws IOException {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/sh\necho \"" + name + " $*\" >> '" + calls + "'\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The commands run so far, in order. */
    List<String> calls() throws IOException {
        return Files.readAllLines(calls);
    }

    /** An environment whose PATH finds the fake first, then the system's basic tools. */
    Map<String, String> env() {
        return Map.of("PATH", bin + ":/usr/bin:/bin");
    }
}
