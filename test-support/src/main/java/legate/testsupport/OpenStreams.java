package legate.testsupport;

/**
 * The number of streams a server is writing right now: what {@link Cleanup#watch} reads to fail a
 * test that leaves one open. A server exposes it as a method, and a test passes a reference to it
 * ({@code cleanup.watch("agent", server::openStreams)}), so no server depends on this module.
 */
@FunctionalInterface
public interface OpenStreams {
    int openStreams();
}
