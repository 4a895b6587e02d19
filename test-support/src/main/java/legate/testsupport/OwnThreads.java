package legate.testsupport;

import java.util.concurrent.Executor;

/**
 * Where a test runs a task that blocks (a drain, a cancel, a stop it waits on): each on a virtual
 * thread of its own. Not the common ForkJoinPool, the default of {@code CompletableFuture.supplyAsync}:
 * on two cores it has one thread, and a task blocked there holds back everything else in the JVM
 * that needs it, the JDK HttpClient's {@code sendAsync} completions among them (seen: a whole
 * module's HTTP tests timing out one after the other in CI).
 */
public final class OwnThreads {
    /** Starts each task on a new virtual thread. */
    public static final Executor EACH = task -> Thread.ofVirtual().name("test-task").start(task);

    private OwnThreads() {
    }
}
