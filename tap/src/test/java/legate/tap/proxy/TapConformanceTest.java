package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.tap.ChildProcess;
import legate.tap.SourceTree;
import legate.tap.show.WirePrinter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The official JS SDK client runs the full interop check suite against our Revisor through the
 * tap, and every exchange is compared byte for byte on both sides of it:
 *
 * <pre>
 *   node (@a2a-js/sdk) -> recorder A -> tap -> recorder B -> AgentServer + Revisor
 * </pre>
 *
 * The recorders are plain TCP relays that know nothing of the tap; what A saw the tap answer must
 * equal what B saw the agent answer, and what B saw the tap send must equal what A saw the client send.
 */
class TapConformanceTest {
    private AgentServer agent;
    private TcpRecorder upstreamSide;
    private TapProxy tap;
    private TcpRecorder clientSide;

    @AfterEach
    void close() throws Exception {
        if (clientSide != null) {
            clientSide.close();
        }
        if (tap != null) {
            tap.stop();
        }
        if (upstreamSide != null) {
            upstreamSide.close();
        }
        if (agent != null) {
            agent.stop();
        }
    }

    // Rule: the tap is transparent. A full conformance run through it passes, and every request
    // and response, each SSE frame included, crosses it byte-identical.
    @Test
    void aFullConformanceRunCrossesTheTapByteForByte() throws Exception {
        Path interop = SourceTree.root().resolve("interop");
        requireNode(interop);
        EventRecorder events = new EventRecorder();
        PrintStream console = new PrintStream(PrintStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        // The card is built once the agent has its port; the chain in front of it is built then,
        // so the card can send clients to the front of the chain (recorder A), not to the agent.
        agent = AgentServer.create(ServerConfig.loopback(0), agentPort -> {
            try {
                upstreamSide = new TcpRecorder(agentPort);
                tap = new TapProxy(TapConfig.loopback(0, URI.create("http://127.0.0.1:" + upstreamSide.port())),
                        List.of(new WirePrinter(console, false), events), Clock.systemUTC());
                clientSide = new TcpRecorder(tap.start());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return RevisorCard.build(null, "http://127.0.0.1:" + clientSide.port() + "/");
        }, new RevisorExecutor(Duration.ofMillis(300)));
        agent.start();

        ChildProcess run = ChildProcess.run(List.of("node", "--test", "a2a-client-check.mjs"), interop,
                Map.of("A2A_URL", "http://127.0.0.1:" + clientSide.port()), Duration.ofSeconds(120));

        assertThat(run.exitCode()).as("the JS SDK checks through the tap:\n%s", run.output()).isZero();
        assertThat(run.output()).contains("# fail 0");
        List<Http1Transcript.Exchange> downstream = Http1Transcript.exchanges(clientSide.connections());
        List<Http1Transcript.Exchange> upstream = Http1Transcript.exchanges(upstreamSide.connections());
        assertThat(downstream).as("exchanges seen between the client and the tap").hasSizeGreaterThan(10);
        assertThat(downstream.stream().filter(Http1Transcript.Exchange::isEventStream)
                .mapToLong(e -> e.responseBody().split("\n\n").length).max().orElse(0))
                .as("frames of the longest stream (the run must exercise streaming)").isGreaterThanOrEqualTo(4);
        assertThat(downstream).containsExactlyInAnyOrderElementsOf(upstream);
    }

    /** A missing Node.js or interop install fails the test with what to do: the interop checks are the point. */
    private static void requireNode(Path interop) throws InterruptedException {
        try {
            ChildProcess version = ChildProcess.run(List.of("node", "--version"), interop, Map.of(), Duration.ofSeconds(30));
            assertThat(version.exitCode()).as("node --version: %s", version.output()).isZero();
        } catch (IOException e) {
            fail("Node.js >= 20 is required for the tap's conformance test and was not found on PATH ("
                    + e.getMessage() + "); install Node.js 20 or newer with npm, then run the build again");
        }
        if (!Files.isDirectory(interop.resolve("node_modules/@a2a-js/sdk"))) {
            fail("interop/node_modules is missing: run interop/install.sh (the Maven build runs it before the tests)");
        }
    }
}
