package legate.testsupport;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that closes what a test started and fails the test on anything it leaked: a
 * stream a watched server still holds, or a child process still alive after a bounded wait.
 *
 * <pre>{@code
 * @RegisterExtension
 * final Cleanup cleanup = new Cleanup();
 *
 * AgentServer server = AgentServer.create(ServerConfig.loopback(0), ...);
 * int port = cleanup.start("agent", server, AgentServer::start, AgentServer::openStreams);
 * }</pre>
 *
 * <p>Its scope is the field's. On an instance field, each test is checked on its own: the child
 * processes alive before it are inherited, and after it the watched servers must have no open
 * stream it opened, then the registered resources are closed (last registered first), then no child
 * started during the test may outlive a bounded wait. On a static field the whole class is the scope: the
 * resources are closed and the processes checked once after the last test (a server started in
 * {@code @BeforeAll} may keep children across tests), while open streams are still checked after
 * every test. Every problem found is reported together, as the test's failure.
 */
public final class Cleanup implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    /** How long a child process or an open stream gets to go away after the test. */
    public static final Duration GRACE = Duration.ofSeconds(10);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Duration grace;
    private final Deque<Registered> resources = new ArrayDeque<>();
    private final List<Watched> watched = new ArrayList<>();
    // Streams each watched server held when the test began: a test answers only for its own.
    private final Map<Watched, Integer> before = new HashMap<>();
    private boolean classScoped;
    private ProcessWatch processes = ProcessWatch.start();

    private record Registered(String name, AutoCloseable resource) {
    }

    private record Watched(String name, OpenStreams streams) {
    }

    public Cleanup() {
        this(GRACE);
    }

    public Cleanup(Duration grace) {
        this.grace = grace;
    }

    /** Closes {@code resource} after the test (or the class, for a static field); returns it. */
    public synchronized <T extends AutoCloseable> T register(T resource) {
        resources.push(new Registered(resource.toString(), resource));
        return resource;
    }

    /**
     * Ends {@code process} and everything it started after the test: SIGTERM, then SIGKILL for
     * whatever is left after the grace period (a process that needed it fails the test). Returns it.
     */
    public synchronized Process register(Process process) {
        resources.push(new Registered("process " + process.pid(), () -> {
            if (!RunningChild.endTree(process.toHandle(), grace)) {
                throw new IllegalStateException("it ignored SIGTERM for " + grace.toMillis() + " ms and was killed");
            }
        }));
        return process;
    }

    /** How a test starts a server: binds it (port 0 in tests) and returns the port it got. */
    @FunctionalInterface
    public interface Start<S> {
        int start(S server) throws Exception;
    }

    /**
     * Starts {@code server} and returns its port; from then on it is closed after the test (or the
     * class) and watched: a stream it still holds after a test fails that test. A server that fails
     * to start is closed all the same, after the test.
     */
    public <S extends AutoCloseable> int start(String name, S server, Start<S> start, ToIntFunction<S> openStreams)
            throws Exception {
        register(server);
        int port = start.start(server);
        watch(name, () -> openStreams.applyAsInt(server));
        return port;
    }

    /**
     * After each test, {@code streams} must fall back within the grace period to what it was
     * before the test (zero for a server started during the test).
     */
    public synchronized void watch(String name, OpenStreams streams) {
        watched.add(new Watched(name, streams));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        // Only a static field receives class callbacks: from here on, this instance covers the class.
        classScoped = true;
        processes = ProcessWatch.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!classScoped) {
            processes = ProcessWatch.start();
        }
        synchronized (this) {
            before.clear();
            for (Watched w : watched) {
                before.put(w, w.streams().openStreams());
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<String> problems = new ArrayList<>(openStreams());
        Throwable cause = null;
        if (!classScoped) {
            cause = closeAll(problems);
            problems.addAll(processes.leaked(grace));
        }
        report(problems, cause);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        List<String> problems = new ArrayList<>();
        Throwable cause = closeAll(problems);
        problems.addAll(processes.leaked(grace));
        report(problems, cause);
    }

    private List<String> openStreams() {
        Map<Watched, Integer> baseline = new LinkedHashMap<>();
        synchronized (this) {
            for (Watched w : watched) {
                baseline.put(w, before.getOrDefault(w, 0));
            }
        }
        List<String> problems = new ArrayList<>();
        long deadline = System.nanoTime() + grace.toNanos();
        baseline.forEach((w, allowed) -> {
            int open = w.streams().openStreams();
            // A count has no event to wait on: it is read again until it falls or the grace runs out.
            while (open > allowed && System.nanoTime() < deadline) {
                LockSupport.parkNanos(POLL_NANOS);
                open = w.streams().openStreams();
            }
            if (open > allowed) {
                problems.add(w.name() + " still holds " + (open - allowed) + " open stream(s) " + grace.toSeconds()
                        + " s after the test: a stream was neither ended by the server nor closed by its client");
            }
        });
        return problems;
    }

    private Throwable closeAll(List<String> problems) {
        Throwable first = null;
        while (true) {
            Registered r;
            synchronized (this) {
                r = resources.poll();
            }
            if (r == null) {
                return first;
            }
            try {
                r.resource().close();
            } catch (Exception | AssertionError e) {
                problems.add("closing " + r.name() + " failed: " + e);
                first = first == null ? e : first;
            }
        }
    }

    private static void report(List<String> problems, Throwable cause) {
        if (!problems.isEmpty()) {
            throw new AssertionError("left behind:\n  " + String.join("\n  ", problems), cause);
        }
    }
}
