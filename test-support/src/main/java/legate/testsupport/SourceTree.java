package legate.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Legate checkout the tests run in, found from the working directory: Maven runs a module's
 * tests in the module's folder, an IDE often in the root.
 */
public final class SourceTree {
    private SourceTree() {
    }

    /** The nearest folder at or above the working directory holding {@code mvnw} and {@code interop/}. */
    public static Path root() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("interop"))) {
                return dir;
            }
        }
        throw new AssertionError("not inside the Legate checkout: no folder at or above " + start
                + " holds mvnw and interop/");
    }

    /** A file or folder of the checkout, which must exist: {@code resolve("scripts/raw.sh")}. */
    public static Path resolve(String relative) {
        Path p = root().resolve(relative);
        if (!Files.exists(p)) {
            throw new AssertionError(relative + " is missing from the checkout at " + root());
        }
        return p;
    }
}
