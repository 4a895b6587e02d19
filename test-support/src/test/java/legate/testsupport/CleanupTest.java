package legate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The cleanup extension as a test sees it: each sample class below is run through the JUnit test
 * kit, and what the extension reported is read from its events. (Surefire skips nested classes,
 * so the samples run only from here.)
 */
class CleanupTest {
    private static final Duration SHORT = Duration.ofMillis(500);
    private static final AtomicLong samplePid = new AtomicLong();
    private static final List<String> closed = new CopyOnWriteArrayList<>();

    private static Process sleeper() throws IOException {
        Process p = new ProcessBuilder("sleep", "60").start();
        samplePid.set(p.pid());
        return p;
    }

    private static Events tests(Class<?> sample) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(sample)).execute().testEvents();
    }

    private static Events containers(Class<?> sample) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(sample)).execute().containerEvents();
    }

    private static Throwable failureOf(Events events) {
        return events.failed().stream().findFirst().orElseThrow()
                .getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Whether the process is gone, waiting at most {@code wait} for it to exit. */
    static boolean goneWithin(long pid, Duration wait) {
        try {
            ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(wait.toMillis(), TimeUnit.MILLISECONDS).join());
        } catch (CompletionException e) {
            return false;
        }
        return !alive(pid);
    }

    static class LeavesAChild {
        @RegisterExtension
        final Cleanup cleanup = new Cleanup(SHORT);

        @Test
        void startsAChildAndForgetsIt() throws IOException {
            sleeper();
        }
    }

    // Rule: a child process a test started and did not stop fails that test, naming it, and is
    // killed so the next test starts clean.
    @Test
    void aLeakedChildProcessFailsTheTestAndIsKilled() throws Exception {
        Events events = tests(LeavesAChild.class);

        events.assertStatistics(s -> s.started(1).failed(1));
        assertThat(failureOf(events)).hasMessageContaining("child process " + samplePid.get()).hasMessageContaining("sleep 60");
        assertThat(goneWithin(samplePid.get(), Duration.ofSeconds(10))).isTrue();
    }

    static class StopsItsChild {
        @RegisterExtension
        final Cleanup cleanup = new Cleanup(SHORT);

        @Test
        void registersTheChild() throws IOException {
            cleanup.register(sleeper());
        }
    }

    // Rule: a registered child is ended with the test and is not a leak.
    @Test
    void aRegisteredChildIsStoppedAndNotReported() throws Exception {
        tests(StopsItsChild.class).assertStatistics(s -> s.started(1).succeeded(1));
        assertThat(alive(samplePid.get())).isFalse();
    }

    static class KeepsAChildForTheClass {
        @RegisterExtension
        static final Cleanup cleanup = new Cleanup(SHORT);

        @BeforeAll
        static void start() throws IOException {
            cleanup.register(sleeper());
        }

        @Test
        void one() {
        }

        @Test
        void two() {
        }
    }

    // Rule: on a static field the class is the scope: a child started for the class lives across its
    // tests, and is stopped after the last one.
    @Test
    void aStaticCleanupKeepsItsChildrenUntilTheClassEnds() {
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(KeepsAChildForTheClass.class)).execute()
                .allEvents().assertStatistics(s -> s.failed(0).succeeded(4));
        assertThat(alive(samplePid.get())).isFalse();
    }

    static class LeavesAChildForTheClass {
        @RegisterExtension
        static final Cleanup cleanup = new Cleanup(SHORT);

        @BeforeAll
        static void start() throws IOException {
            sleeper();
        }

        @Test
        void passes() {
        }
    }

    @Test
    void aChildLeakedByTheClassFailsTheClass() throws Exception {
        containers(LeavesAChildForTheClass.class).assertStatistics(s -> s.failed(1));
        assertThat(goneWithin(samplePid.get(), Duration.ofSeconds(10))).isTrue();
    }

    static class LeavesAStreamOpen {
        @RegisterExtension
        final Cleanup cleanup = new Cleanup(SHORT);

        @Test
        void watchesAServerWithAStreamOpen() {
            cleanup.watch("the sample server", () -> 1);
        }
    }

    static class ClosesItsStreams {
        @RegisterExtension
        final Cleanup cleanup = new Cleanup(SHORT);

        @Test
        void watchesAServerWithNoStream() {
            cleanup.watch("the sample server", () -> 0);
        }
    }

    // Rule: a stream a watched server still holds after the test is a leak; none is not.
    @Test
    void aStreamLeftOpenFailsTheTest() {
        Events leaked = tests(LeavesAStreamOpen.class);
        leaked.assertStatistics(s -> s.failed(1));
        assertThat(failureOf(leaked)).hasMessageContaining("the sample server still holds 1 open stream");
        tests(ClosesItsStreams.class).assertStatistics(s -> s.succeeded(1));
    }

    /** A server as a test sees one: started on port 0, then holding a stream the test forgot. */
    static final class SampleServer implements AutoCloseable {
        int openStreams;

        int start() {
            closed.add("started");
            return 0;
        }

        @Override
        public void close() {
            closed.add("closed");
        }
    }

    static class StartsAServerAndLeavesAStream {
        @RegisterExtension
        final Cleanup cleanup = new Cleanup(SHORT);

        @Test
        void startsAServer() throws Exception {
            SampleServer server = new SampleServer();
            assertThat(cleanup.start("the started server", server, SampleServer::start, s -> s.openStreams)).isZero();
            server.openStreams = 1;
        }
    }

    // Rule: a server started through the extension is closed after the test and watched: a stream
    // it still holds fails the test that opened it.
    @Test
    void aStartedServerIsWatchedAndClosed() {
        closed.clear();
        Events events = tests(StartsAServerAndLeavesAStream.class);

        events.assertStatistics(s -> s.failed(1));
        assertThat(failureOf(events)).hasMessageContaining("the started server still holds 1 open stream");
        assertThat(closed).containsExactly("started", "closed");
    }

    static class RegistersTwo {
        @RegisterExtension
        final Cleanup cleanup = new Cleanup(SHORT);

        @Test
        void registersAServerThenItsClient() {
            cleanup.register(() -> closed.add("server"));
            cleanup.register(() -> closed.add("client"));
        }
    }

    // Rule: what was registered last is closed first, as a client before the server it talks to.
    @Test
    void resourcesCloseInReverseOrder() {
        closed.clear();
        tests(RegistersTwo.class).assertStatistics(s -> s.succeeded(1));
        assertThat(closed).containsExactly("client", "server");
    }

    @Test
    void aProcessThatExitsByItselfIsNoLeak() throws Exception {
        ProcessWatch watch = ProcessWatch.start();
        Process quick = new ProcessBuilder("true").start();
        assertThat(quick.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(watch.leaked(SHORT)).isEmpty();
    }
}
