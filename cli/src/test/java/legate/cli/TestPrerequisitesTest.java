package legate.cli;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.SourceTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/test-prerequisites.sh, which the root build runs first so that the README's test command
 * passes on a fresh Debian machine by itself. The real script runs with a PATH of stand-in commands
 * only ({@code id}, {@code sudo}, {@code apt-get}, the commands the tests drive), so each way a
 * machine can be is one case, and every apt-get call is recorded with who made it.
 * DEFECT (issue 30): on a fresh machine {@code ./mvnw verify} failed in InspectorPageTest for want
 * of Chromium; only {@code .ci/run} installed it.
 */
class TestPrerequisitesTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final String INSTALL = "apt-get install -y -qq --no-install-recommends chromium chromium-driver";

    @TempDir
    Path dir;

    private Path bin() throws IOException {
        return Files.createDirectories(dir.resolve("bin"));
    }

    private Path calls() {
        return dir.resolve("apt-calls");
    }

    private void command(String name, String body) throws IOException {
        Path p = bin().resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A machine with openssl and systemd-analyze, without Chromium and its driver, whose user is {@code uid}. */
    private void machine(int uid) throws IOException {
        command("openssl", "exit 0\n");
        command("systemd-analyze", "exit 0\n");
        command("id", "echo " + uid + "\n");
        command("env", "exec /usr/bin/env \"$@\"\n");
    }

    /**
     * apt-get that records its arguments and who ran it; its install gives the packages' commands
     * when {@code provides}, and fails as without a network when not {@code works}.
     */
    private void aptGet(boolean works, boolean provides) throws IOException {
        String bin = bin().toString();
        command("apt-get", """
                echo "${LEGATE_AS:-self} ${DEBIAN_FRONTEND:-asking} apt-get $*" >> '%s'
                %s
                if [ "$1" = install ] && %s; then
                  for p in "$@"; do
                    case "$p" in
                      chromium) c=chromium ;; chromium-driver) c=chromedriver ;;
                      systemd) c=systemd-analyze ;; openssl) c=openssl ;; *) continue ;;
                    esac
                    printf '#!/bin/sh\\nexit 0\\n' > '%s'/"$c"
                    /bin/chmod 755 '%s'/"$c"
                  done
                fi
                """.formatted(calls(), works ? "" : "echo 'E: could not resolve deb.debian.org' >&2; exit 100",
                provides, bin, bin));
    }

    /**
     * sudo that runs its command as "sudo" without asking when {@code passwordless}, else needs a
     * password; as the real one does, it resets the environment.
     */
    private void sudo(boolean passwordless) throws IOException {
        command("sudo", passwordless ? """
                [ "$1" = -n ] || exit 2
                shift
                [ "$1" = true ] && exit 0
                exec /usr/bin/env -i PATH="$PATH" LEGATE_AS=sudo "$@"
                """ : """
                echo 'sudo: a password is required' >&2
                exit 1
                """);
    }

    private ChildRun prerequisites() throws IOException {
        return ChildCommand.of("/bin/bash", SourceTree.resolve("scripts/test-prerequisites.sh").toString())
                .in(dir).env("PATH", bin().toString()).without("LEGATE_AS", "DEBIAN_FRONTEND").run(LIMIT);
    }

    private List<String> aptCalls() throws IOException {
        return Files.exists(calls()) ? Files.readAllLines(calls()) : List.of();
    }

    @Test
    void asRootTheMissingPackagesAreInstalledWithAptGet() throws Exception {
        machine(0);
        aptGet(true, true);
        ChildRun r = prerequisites();
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(aptCalls()).containsExactly("self noninteractive apt-get update -qq", "self noninteractive " + INSTALL);
        assertThat(r.stdout()).contains("legate tests: installing chromium chromium-driver with apt-get");
    }

    @Test
    void notAsRootTheyAreInstalledThroughSudoWhenItAsksNoPassword() throws Exception {
        machine(1000);
        aptGet(true, true);
        sudo(true);
        ChildRun r = prerequisites();
        assertThat(r.exitCode()).as(r.output()).isZero();
        // DEBIAN_FRONTEND reaches apt-get through sudo's reset environment: no package script stops at a question.
        assertThat(aptCalls()).containsExactly("sudo noninteractive apt-get update -qq", "sudo noninteractive " + INSTALL);
        assertThat(r.stdout()).contains("with sudo -n apt-get");
    }

    // Neither root nor a sudo that asks no password: the build stops at once, naming the packages
    // and the command that installs them, instead of failing in InspectorPageTest minutes later.
    @Test
    void withoutRootOrAPasswordlessSudoTheBuildStopsNamingThePackages() throws Exception {
        machine(1000);
        aptGet(true, true);
        for (boolean withSudo : List.of(false, true)) {
            if (withSudo) {
                sudo(false);
            }
            ChildRun r = prerequisites();
            assertThat(r.exitCode()).as(r.output()).isEqualTo(1);
            assertThat(r.stderr()).contains("missing system packages: chromium chromium-driver")
                    .contains("sudo apt-get install chromium chromium-driver")
                    .contains("./mvnw verify -Dlegate.prerequisites.skip");
            assertThat(aptCalls()).isEmpty();
        }
    }

    @Test
    void withEverythingThereNothingRunsAndNothingIsSaid() throws Exception {
        machine(1000);
        command("chromium", "exit 0\n");
        command("chromedriver", "exit 0\n");
        aptGet(true, true);
        ChildRun r = prerequisites();
        assertThat(r.exitCode()).isZero();
        assertThat(r.output()).isEmpty();
        assertThat(aptCalls()).isEmpty();
    }

    // An install that fails (no network), or a package that brings no such command (Ubuntu's
    // chromium only points at a snap), stops the build there, saying which, not in a test later.
    @Test
    void anInstallThatFailsOrBringsNoCommandStopsTheBuildSayingSo() throws Exception {
        machine(0);
        aptGet(false, true);
        ChildRun failed = prerequisites();
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.stderr()).contains("E: could not resolve")
                .contains("apt-get could not install chromium chromium-driver");

        aptGet(true, false);
        ChildRun empty = prerequisites();
        assertThat(empty.exitCode()).isEqualTo(1);
        assertThat(empty.stderr()).contains("the commands of chromium chromium-driver are still not on the PATH");
    }

    @Test
    void withoutAptGetTheBuildStopsNamingThePackages() throws Exception {
        machine(0);
        ChildRun r = prerequisites();
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("missing system packages: chromium chromium-driver (Debian names); no apt-get here");
    }

    /** The issue's rule: {@code .ci/run} calls the README's test command, the same one. */
    @Test
    void ciRunsTheReadmesTestCommand() throws Exception {
        String readme = Files.readString(SourceTree.resolve("README.md"));
        String setUp = readme.substring(readme.indexOf("## Set-up"), readme.indexOf("## Using it"));
        int start = setUp.indexOf("```sh\n") + 6;
        String testCommand = setUp.substring(start, setUp.indexOf("```", start)).lines()
                .filter(l -> l.startsWith("./mvnw")).map(l -> l.replaceAll("\\s*#.*", "")).findFirst()
                .orElseThrow(() -> new AssertionError("no ./mvnw line in the README's Set-up commands"));
        String ciCommand = Files.readAllLines(SourceTree.resolve(".ci/run")).stream()
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).reduce((a, b) -> b).orElseThrow();
        assertThat(ciCommand).isEqualTo(testCommand).isEqualTo("./mvnw verify");
    }

    /**
     * The real root build, on a machine without Chromium and without root or sudo: the README's
     * test command runs this script first and stops there, naming the packages; a build without
     * tests (bin/legate builds its jar with -DskipTests) and one with -Dlegate.prerequisites.skip
     * do not run it, since starting Legate needs none of these packages. Maven runs offline in a
     * copy of the root project, from the local repository this build already filled.
     */
    @Test
    void theRootBuildRunsThisScriptFirstUnlessNoTestRuns() throws Exception {
        Path root = dir.resolve("legate");
        for (String f : List.of("pom.xml", "mvnw", ".mvn/wrapper/maven-wrapper.properties", "bin/lib/find-jdk.sh",
                "scripts/test-prerequisites.sh")) {
            Files.createDirectories(root.resolve(f).getParent());
            Files.copy(SourceTree.resolve(f), root.resolve(f), StandardCopyOption.COPY_ATTRIBUTES);
        }
        // This machine's commands, less Chromium, its driver, sudo and apt-get, and a user who is not root.
        Set<String> hidden = Set.of("chromium", "chromium-browser", "google-chrome", "chromedriver", "sudo", "apt-get", "id");
        try {
            for (String d : System.getenv("PATH").split(":")) {
                if (d.isEmpty() || !Files.isDirectory(Path.of(d))) {
                    continue;
                }
                try (Stream<Path> files = Files.list(Path.of(d))) {
                    for (Path f : files.toList()) {
                        Path link = bin().resolve(f.getFileName().toString());
                        if (!hidden.contains(f.getFileName().toString()) && Files.isExecutable(f)
                                && Files.notExists(link, NOFOLLOW_LINKS)) {
                            Files.createSymbolicLink(link, f);
                        }
                    }
                }
            }
            command("id", "echo 1000\n");
            String jdk = Path.of(System.getProperty("java.home")).toString();

            ChildRun test = maven(root, jdk);
            assertThat(test.exitCode()).as(test.output()).isNotZero();
            assertThat(test.output()).contains("missing system packages: chromium chromium-driver");

            for (String noStep : List.of("-DskipTests", "-Dmaven.test.skip=true", "-Dlegate.prerequisites.skip")) {
                ChildRun r = maven(root, jdk, noStep);
                assertThat(r.exitCode()).as(noStep + ": " + r.output()).isZero();
                assertThat(r.output()).as(noStep).doesNotContain("missing system packages");
            }
        } finally {
            // Removed here: JUnit's clean-up of the folder warns about each link that leaves it.
            try (Stream<Path> files = Files.list(bin())) {
                for (Path f : files.filter(Files::isSymbolicLink).toList()) {
                    Files.delete(f);
                }
            }
        }
    }

    private ChildRun maven(Path root, String jdk, String... flags) throws IOException {
        List<String> argv = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-o", "-B", "-ntp", "-N"));
        argv.addAll(List.of(flags));
        argv.add("validate");
        return ChildCommand.of(argv).in(root).env("PATH", bin().toString()).env("JAVA_HOME", jdk)
                .without("MAVEN_ARGS", "MAVEN_OPTS").run(Duration.ofMinutes(3));
    }
}
