package legate.acp.permission;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The working directory of one ACP session: the {@code cwd} sent in {@code session/new}, and the
 * boundary that file edits and {@code fs/*} requests must stay inside.
 *
 * <p>A root is either <em>ours</em>, a fresh directory the bridge created for the conversation (a
 * sandbox whose contents nobody else relies on), or <em>given</em> by configuration
 * ({@code ACP_CWD}), a directory someone else owns. {@link #path()} is always the real path, so
 * containment is decided on what the kernel would open, not on how a path is spelled.
 *
 * <p>{@link #resolve} walks a path one name at a time the way the kernel does: a symbolic link is
 * replaced by its target wherever it stands (a dangling one too, because writing through it creates
 * the target), {@code ..} climbs from the directory actually reached, and the names that do not exist
 * yet are taken lexically. The result contains no symbolic link in its existing part, so a file
 * opened through it lands where the check said. This is a check, not a jail: a process that swaps a
 * directory for a link between the check and the use wins the race, and an agent allowed to execute
 * commands can do that (see the README's "what the permission check does not protect against").
 *
 * <p>Immutable and safe to share between threads.
 */
public final class SessionRoot {

    // Linux gives up after 40 links (ELOOP); a loop must end the same way here.
    private static final int MAX_LINKS = 40;

    private final Path path;
    private final boolean ours;

    private SessionRoot(Path path, boolean ours) {
        this.path = path;
        this.ours = ours;
    }

    /**
     * Creates a fresh directory atomically under {@code sandboxParent} (created if missing) and marks
     * it ours. The name comes from {@link Files#createTempDirectory}, never from caller input, so two
     * conversations cannot be steered into one directory.
     */
    public static SessionRoot createIn(Path sandboxParent) throws IOException {
        Files.createDirectories(sandboxParent);
        Path created = Files.createTempDirectory(sandboxParent, "ctx-");
        return new SessionRoot(created.toRealPath(), true);
    }

    /**
     * An existing directory given by configuration ({@code ACP_CWD}): used as is, not ours.
     *
     * @throws IllegalArgumentException if it does not exist or is not a directory
     */
    public static SessionRoot given(Path existingDir) {
        if (!Files.isDirectory(existingDir)) {
            throw new IllegalArgumentException("the session working directory " + existingDir
                    + (Files.exists(existingDir) ? " is not a directory" : " does not exist"));
        }
        try {
            return new SessionRoot(existingDir.toRealPath(), false);
        } catch (IOException e) {
            throw new IllegalArgumentException("the session working directory " + existingDir
                    + " cannot be resolved: " + e.getMessage(), e);
        }
    }

    /**
     * A directory the bridge created earlier under {@code sandboxParent} (kept in a conversation's
     * record), marked ours again; null when {@code kept} is not a directory directly inside that
     * parent, so a record can never point a conversation elsewhere.
     */
    public static SessionRoot reopenIn(Path sandboxParent, Path kept) {
        try {
            Path real = kept.toRealPath();
            Path parent = sandboxParent.toRealPath();
            if (!Files.isDirectory(real) || !parent.equals(real.getParent()) || !real.equals(kept)) {
                return null;
            }
            return new SessionRoot(real, true);
        } catch (IOException e) {
            return null;
        }
    }

    /** The root as an absolute real path (symbolic links resolved). */
    public Path path() {
        return path;
    }

    /** True when the bridge created this directory for the session; false when configuration gave it. */
    public boolean ours() {
        return ours;
    }

    /**
     * True when {@code path} (absolute, or relative to the root) resolves inside the root; the root
     * itself counts as inside. A sibling such as {@code <root>-evil} is outside, and {@code ..notes}
     * is an ordinary child name.
     */
    public boolean contains(String path) {
        try {
            resolve(path);
            return true;
        } catch (PathOutsideRoot e) {
            return false;
        }
    }

    /**
     * The real target of {@code path} (absolute, or relative to the root): symbolic links followed as
     * far as the path exists, the rest normalised lexically.
     *
     * @throws PathOutsideRoot when the target is outside the root, or the path cannot be resolved
     *     (empty, malformed, a link loop, an unreadable link), which is refused the same way
     */
    public Path resolve(String path) throws PathOutsideRoot {
        Path target = target(path);
        // Path.startsWith compares whole names: <root>-evil does not start with <root>, ..notes is a child.
        if (!target.startsWith(this.path)) {
            throw new PathOutsideRoot(path, this.path, null);
        }
        return target;
    }

    /**
     * The real target of {@code path}, resolved as {@link #resolve} does, wherever it is: what a
     * policy's path globs are matched against.
     *
     * @throws PathOutsideRoot when the path cannot be resolved at all (empty, malformed, a link loop)
     */
    public Path target(String path) throws PathOutsideRoot {
        if (path == null || path.isBlank()) {
            throw new PathOutsideRoot(String.valueOf(path), this.path, "no path was given");
        }
        try {
            return walk(Path.of(path));
        } catch (InvalidPathException e) {
            throw new PathOutsideRoot(path, this.path, "it is not a valid path");
        } catch (IOException e) {
            throw new PathOutsideRoot(path, this.path, "it cannot be resolved (" + e.getMessage() + ")");
        }
    }

    private Path walk(Path given) throws IOException {
        Deque<String> names = new ArrayDeque<>();
        pushFront(names, given);
        Path current = given.isAbsolute() ? given.getRoot() : this.path;
        int links = 0;
        while (!names.isEmpty()) {
            String name = names.pop();
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                // current holds no links, so its lexical parent is the directory the kernel would reach.
                Path parent = current.getParent();
                current = parent == null ? current : parent;
                continue;
            }
            Path next = current.resolve(name);
            if (Files.isSymbolicLink(next)) {
                if (++links > MAX_LINKS) {
                    throw new IOException("too many levels of symbolic links");
                }
                Path linkTarget = Files.readSymbolicLink(next);
                pushFront(names, linkTarget);
                if (linkTarget.isAbsolute()) {
                    current = linkTarget.getRoot();
                }
                continue;
            }
            // Every name is checked, even after one that does not exist: "missing/../link/x" climbs back
            // into existing directories, and the caller opens the result, following any link left in it.
            current = next;
        }
        return current;
    }

    private static void pushFront(Deque<String> names, Path path) {
        List<String> parts = new ArrayList<>();
        for (Path part : path) {
            parts.add(part.toString());
        }
        for (int i = parts.size() - 1; i >= 0; i--) {
            names.push(parts.get(i));
        }
    }

    @Override
    public String toString() {
        return path + (ours ? " (created by the bridge)" : " (given by configuration)");
    }
}
