package legate.store.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Predicate;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

/**
 * The SQLite driver's native library, copied out of the jar once into the data folder and loaded
 * from there. Left to itself, the driver writes it to the temporary folder under a new name at
 * every start (measured: 90 ms of a cold start's 580, a megabyte written each time), and a process
 * that is killed leaves its copy behind. A copy beside the data is as trusted as the data, where
 * one in a shared temporary folder under a known name would not be.
 *
 * <p>Only when nothing chose a library already ({@code org.sqlite.lib.path} unset), the jar has one
 * for this platform, and the copy may be run from where it is (a data folder mounted noexec may
 * not); otherwise, and on any failure to copy, the driver loads as it would have. The driver
 * itself loads the copy, once per process: a second copy of the library loaded beside a first one
 * crashes the JVM.
 */
final class NativeLibrary {
    static final String PATH_PROPERTY = "org.sqlite.lib.path";
    static final String NAME_PROPERTY = "org.sqlite.lib.name";

    private NativeLibrary() {
    }

    /** Makes the driver load its library from {@code dataDir}/native/sqlite-VERSION, copied there if need be. */
    static void prepare(Path dataDir) {
        prepare(dataDir, Files::isExecutable);
    }

    /** @param runnable whether the system would map code from a file there (false on a noexec mount) */
    static synchronized void prepare(Path dataDir, Predicate<Path> runnable) {
        if (System.getProperty(PATH_PROPERTY) != null) {
            return;
        }
        String name = System.mapLibraryName("sqlitejdbc");
        String resource = "/org/sqlite/native/" + OSInfo.getNativeLibFolderPathForCurrentOS() + "/" + name;
        URL url = SQLiteJDBCLoader.class.getResource(resource);
        if (url == null) {
            return;
        }
        Path folder = dataDir.resolve("native").resolve("sqlite-" + SQLiteJDBCLoader.getVersion());
        Path library = folder.resolve(name);
        try {
            URLConnection entry = url.openConnection();
            long size = entry.getContentLengthLong();
            if (!Files.isRegularFile(library) || Files.size(library) != size) {
                Files.createDirectories(folder);
                Path partial = Files.createTempFile(folder, name, ".partial");
                try (InputStream in = entry.getInputStream()) {
                    Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                    if (Files.getFileStore(partial).supportsFileAttributeView("posix")) {
                        Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwx------"));
                    }
                    // Renamed whole into place: another start never loads half a copy.
                    Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } finally {
                    Files.deleteIfExists(partial);
                }
            }
        } catch (IOException | RuntimeException e) {
            // The driver extracts it to the temporary folder as it always has.
            return;
        }
        if (!runnable.test(library)) {
            return;
        }
        System.setProperty(PATH_PROPERTY, folder.toString());
        System.setProperty(NAME_PROPERTY, name);
    }
}
