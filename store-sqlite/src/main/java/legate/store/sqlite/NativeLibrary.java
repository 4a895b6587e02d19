package legate.store.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

/**
 * The SQLite driver's native library, copied out of the jar once into the data folder and loaded
 * from there. Left to itself, the driver writes it to the temporary folder under a new name at
 * every start (measured: 90 ms of a cold start's 580, a megabyte written each time), and a process
 * that is killed leaves its copy behind. A copy beside the data is as trusted as the data, where
 * one in a shared temporary folder under a known name would not be.
 *
 * <p>Only when nothing chose a library already ({@code org.sqlite.lib.path} unset) and the jar has
 * one for this platform; otherwise, and on any failure to copy or load the copy, the driver loads
 * as it would have.
 */
final class NativeLibrary {
    static final String PATH_PROPERTY = "org.sqlite.lib.path";
    static final String NAME_PROPERTY = "org.sqlite.lib.name";

    private NativeLibrary() {
    }

    /** Makes the driver load its library from {@code dataDir}/native/sqlite-VERSION, copied there if need be. */
    static synchronized void prepare(Path dataDir) {
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
                    // Renamed whole into place: another start never loads half a copy.
                    Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } finally {
                    Files.deleteIfExists(partial);
                }
            }
            // Loaded here first: a data folder the system will not map code from (mounted noexec)
            // then leaves the driver to its own way quietly, where its own failed try logs a stack trace.
            System.load(library.toAbsolutePath().toString());
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            // The driver extracts it to the temporary folder as it always has.
            return;
        }
        System.setProperty(PATH_PROPERTY, folder.toString());
        System.setProperty(NAME_PROPERTY, name);
    }
}
