package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

/**
 * The driver's native library is copied into the data folder once and loaded from there, not
 * written to the temporary folder under a new name at every start: a copy that is whole is used as
 * it is, one that is not is replaced, and a library someone else chose is left alone. (The
 * properties are the driver's; this JVM has loaded its library already, so they are restored and
 * nothing here loads a second copy, which would crash the JVM.)
 */
class NativeLibraryTest {
    @TempDir
    Path dir;
    private String path;
    private String name;

    @BeforeEach
    void forget() {
        path = System.clearProperty(NativeLibrary.PATH_PROPERTY);
        name = System.clearProperty(NativeLibrary.NAME_PROPERTY);
    }

    @AfterEach
    void restore() {
        set(NativeLibrary.PATH_PROPERTY, path);
        set(NativeLibrary.NAME_PROPERTY, name);
    }

    private static void set(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void theLibraryIsCopiedIntoTheDataFolderOnceAndThenUsedAsItIs() throws Exception {
        URL packaged = SQLiteJDBCLoader.class.getResource("/org/sqlite/native/" + OSInfo.getNativeLibFolderPathForCurrentOS()
                + "/" + System.mapLibraryName("sqlitejdbc"));
        assertThat(packaged).as("the driver has a library for this platform").isNotNull();
        long size = packaged.openConnection().getContentLengthLong();

        NativeLibrary.prepare(dir);
        Path folder = dir.resolve("native").resolve("sqlite-" + SQLiteJDBCLoader.getVersion());
        Path library = folder.resolve(System.mapLibraryName("sqlitejdbc"));
        assertThat(library).isRegularFile().hasSize(size);
        assertThat(System.getProperty(NativeLibrary.PATH_PROPERTY)).isEqualTo(folder.toString());
        assertThat(System.getProperty(NativeLibrary.NAME_PROPERTY)).isEqualTo(System.mapLibraryName("sqlitejdbc"));
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files).as("no partial copy left").containsExactly(library);
        }

        // A whole copy is used as it is at the next start; one cut short is written again.
        long written = Files.getLastModifiedTime(library).toMillis();
        System.clearProperty(NativeLibrary.PATH_PROPERTY);
        NativeLibrary.prepare(dir);
        assertThat(Files.getLastModifiedTime(library).toMillis()).isEqualTo(written);
        Files.write(library, new byte[] {1, 2, 3});
        System.clearProperty(NativeLibrary.PATH_PROPERTY);
        NativeLibrary.prepare(dir);
        assertThat(library).hasSize(size);
    }

    // A copy the system would not run from where it is (a data folder mounted noexec) leaves the
    // driver to extract its own, as before, instead of failing the start.
    @Test
    void aCopyThatCannotBeRunFromTheDataFolderLeavesTheDriverToItsOwnWay() {
        NativeLibrary.prepare(dir, library -> false);

        assertThat(System.getProperty(NativeLibrary.PATH_PROPERTY)).isNull();
        assertThat(System.getProperty(NativeLibrary.NAME_PROPERTY)).isNull();
    }

    @Test
    void aLibrarySomeoneElseChoseIsLeftAlone() {
        System.setProperty(NativeLibrary.PATH_PROPERTY, "/somewhere/else");
        NativeLibrary.prepare(dir);
        assertThat(dir.resolve("native")).doesNotExist();
        assertThat(System.getProperty(NativeLibrary.PATH_PROPERTY)).isEqualTo("/somewhere/else");
    }
}
