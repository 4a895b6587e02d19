/**
 * What Legate's tests share: a cleanup extension that fails a test on a leaked child process or
 * stream, one way to run the checkout's Node.js scripts, one recorder of A2A stream events, and a
 * peer that writes raw HTTP.
 *
 * <ul>
 *   <li>{@link legate.testsupport.Cleanup}: a JUnit 5 extension. It closes what a test registers
 *       (servers, clients, fixtures, processes), fails the test when a server it watches still
 *       holds an open stream ({@link legate.testsupport.OpenStreams}), and fails it when a child
 *       process started during the test is still alive after a bounded wait.</li>
 *   <li>{@link legate.testsupport.SourceTree}, {@link legate.testsupport.NodeScript},
 *       {@link legate.testsupport.ChildCommand}: the checkout's root, the npm packages of
 *       {@code interop/} and {@code adapters/} installed once, and child processes run with a
 *       bounded timeout that kills the whole process tree. A missing Node.js fails the test,
 *       naming what to install; interop with the official SDKs is never skipped.</li>
 *   <li>{@link legate.testsupport.StreamRecorder}: the events of one A2A stream as a client sees
 *       them ({@code kinds()}, {@code states()}, {@code said()}, {@code artifacts()}), bounded waits,
 *       and "nothing left over".</li>
 *   <li>{@link legate.testsupport.ScriptedPeer}: a loopback HTTP/1.1 peer whose answers a test
 *       writes byte by byte (a card, SSE frames with ids, a stream cut in the middle), for the
 *       client side of cases no well-behaved server produces on demand.</li>
 *   <li>{@link legate.testsupport.NestedJson}, {@link legate.testsupport.NestingProperty}: random
 *       JSON values of an exact nesting depth, and the property every task store keeps for the
 *       nesting limit (at it: stored and read back; past it: refused), run over JSON-RPC against a
 *       server on the store under test.</li>
 * </ul>
 *
 * <h2>Why this module knows no server</h2>
 * A module that test-support depends on cannot use it in its own tests: Maven would see a cycle.
 * Depending on {@code a2a-server} would have kept the server's own tests, which most need a
 * recorder and a cleanup, out. So this module depends on JUnit, AssertJ and {@code a2a-model}
 * (the recorder reads {@code StreamResponse}) and nothing of Legate above it; every module from
 * {@code a2a-server} up can use it. What is specific to a server stays with that server's tests:
 * a test registers an {@code AgentServer} as an {@link java.lang.AutoCloseable} and watches its
 * {@code openStreams()} through a method reference, and the few lines that feed a server
 * subscription or a client listener into a {@link legate.testsupport.StreamRecorder} live in the
 * module that owns the subscription or the listener.
 */
package legate.testsupport;
