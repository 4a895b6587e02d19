package legate.tap.web;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium for the page tests, driven through its own chromedriver: Debian's
 * {@code chromium} and {@code chromium-driver} packages (installed by the build, scripts/test-prerequisites.sh, when missing),
 * found on the PATH. Nothing is downloaded: when either is missing the test fails, naming the
 * packages, instead of being skipped.
 */
final class Chromium {
    private static final List<String> BROWSERS = List.of("chromium", "chromium-browser", "google-chrome");

    private Chromium() {
    }

    /** @param downloads where the browser saves what the page downloads */
    static ChromeDriver start(Path downloads) {
        Path browser = BROWSERS.stream().map(Chromium::onPath).flatMap(Optional::stream).findFirst()
                .orElseThrow(() -> new AssertionError("no Chromium on the PATH (" + BROWSERS + "): install Debian's "
                        + "chromium and chromium-driver packages (./mvnw verify does when they are missing, unless -Dlegate.prerequisites.skip)"));
        Path driver = onPath("chromedriver").orElseThrow(() -> new AssertionError("no chromedriver on the PATH: "
                + "install Debian's chromium-driver package (./mvnw verify does when it is missing)"));
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        // --no-sandbox: the tests run as root in CI, where Chromium's sandbox refuses to start.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,900", "--no-first-run", "--disable-extensions");
        options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
                "download.prompt_for_download", false));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.toFile())
                .usingAnyFreePort()
                .withTimeout(Duration.ofSeconds(60))
                .build();
        ChromeDriver chrome = new ChromeDriver(service, options);
        // Headless Chromium saves downloads only when told where, through the DevTools protocol.
        chrome.executeCdpCommand("Browser.setDownloadBehavior", Map.of("behavior", "allow",
                "downloadPath", downloads.toString()));
        return chrome;
    }

    private static Optional<Path> onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
