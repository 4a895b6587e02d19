import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A scratch PostgreSQL server for the store workload: a cluster made with the machine's own
 * {@code initdb} in a temporary folder, its {@code postgres} process a child of the harness (stopped
 * by its PID like every other), listening on 127.0.0.1 only, trust authentication, one fresh
 * database per Legate start so no run reads another's tables.
 *
 * <p>PostgreSQL refuses to run as root: when the harness is root, the cluster belongs to the
 * {@code postgres} user the distribution's package creates, and its commands run under that user
 * with {@code setpriv} (which replaces itself with the command, so the PID stays the server's).
 */
final class Postgres {
    final Path bin, dir;
    final Proc server;
    final int port;
    final boolean asPostgresUser;
    private int databases;

    private Postgres(Path bin, Path dir, Proc server, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.dir = dir;
        this.server = server;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /** The folder of {@code initdb} and {@code postgres}: the newest Debian-style install, or the PATH. */
    static Path findBin() throws IOException {
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                Path newest = versions.filter(v -> Files.isExecutable(v.resolve("bin/postgres")))
                        .max(Comparator.comparingInt(v -> numeric(v.getFileName().toString()))).orElse(null);
                if (newest != null) {
                    return newest.resolve("bin");
                }
            }
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "postgres")) && Files.isExecutable(Path.of(d, "initdb"))) {
                return Path.of(d);
            }
        }
        throw new IOException("PostgreSQL is not installed (no initdb/postgres found); bench/run installs the "
                + "'postgresql' package when it runs as root, or install it yourself");
    }

    private static int numeric(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static Postgres start(Path logs) throws IOException, InterruptedException {
        Path bin = findBin();
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("legate-bench-pg");
        if (root) {
            UserPrincipal postgres = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
            Files.setOwner(dir, postgres);
        }
        Path data = dir.resolve("data");
        String initLog = Proc.capture(as(root, List.of(bin.resolve("initdb").toString(), "-D", data.toString(),
                "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-instructions")), dir, 120);
        if (initLog == null) {
            delete(dir);
            throw new IOException("initdb failed in " + dir);
        }
        int port = Proc.freePort();
        Proc server = Proc.start("postgres", as(root, List.of(bin.resolve("postgres").toString(), "-D", data.toString(),
                "-p", "" + port, "-c", "listen_addresses=127.0.0.1", "-k", dir.toString(), "-c", "max_connections=200")),
                Map.copyOf(System.getenv()), dir, logs.resolve("postgres.log"));
        Postgres pg = new Postgres(bin, dir, server, port, root);
        try {
            pg.awaitReady();
        } catch (IOException e) {
            pg.stop();
            throw e;
        }
        return pg;
    }

    private static List<String> as(boolean root, List<String> command) {
        if (!root) {
            return command;
        }
        List<String> c = new ArrayList<>(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups",
                "--"));
        c.addAll(command);
        return c;
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!server.process.isAlive()) {
                throw new IOException("postgres exited at start; see " + server.log);
            }
            String ready = Proc.capture(List.of(bin.resolve("pg_isready").toString(), "-h", "127.0.0.1", "-p", "" + port,
                    "-U", "postgres"), dir, 10);
            if (ready != null) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IOException("postgres did not accept connections within 60 s; see " + server.log);
    }

    /** A new, empty database and the DATABASE_URL Legate reaches it at. */
    String freshDatabase() throws IOException {
        String name = "bench" + (++databases);
        String out = Proc.capture(List.of(bin.resolve("createdb").toString(), "-h", "127.0.0.1", "-p", "" + port,
                "-U", "postgres", name), dir, 30);
        if (out == null) {
            throw new IOException("createdb " + name + " failed");
        }
        return "postgres://postgres@127.0.0.1:" + port + "/" + name;
    }

    void stop() {
        server.stop();
        delete(dir);
    }

    private static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A scratch folder under the temporary directory; nothing depends on it being gone.
        }
    }
}
