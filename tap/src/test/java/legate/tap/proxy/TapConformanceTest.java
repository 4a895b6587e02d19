package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import legate.tap.show.WirePrinter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
    // After close() below: no node process of the run may outlive it.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
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

        ChildRun run = NodeScript.test("a2a-client-check.mjs").env("A2A_URL", "http://127.0.0.1:" + clientSide.port())
                .run(Duration.ofSeconds(120));

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
}
