package legate.tap;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout the tests run in, found from the working directory (Maven runs a module's tests in the module). */
public final class SourceTree {
    private SourceTree() {
    }

    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("interop"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("not inside the Legate checkout: " + Path.of("").toAbsolutePath());
    }
}
