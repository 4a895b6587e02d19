package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.RawHttp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The agent's Host check (issue 30, defect 3; README "Security") seen through {@code legate tap}, set
 * up as the README says: the agent's PUBLIC_URL is the tap's URL, the tap's TARGET_URL the agent's.
 * The tap writes the target's name as Host, so the agent answers it; and the tap, bound to loopback,
 * answers loopback names only, or a rebinding page would get through it to the agent.
 */
class TapHostTest {
    private static final String SEND = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
            + "{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hello there\"}]}}}";
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static int tapPort;
    private static int wideTapPort;

    @BeforeAll
    static void start() throws Exception {
        AtomicReference<TapProxy> tap = new AtomicReference<>();
        AgentServer agent = AgentServer.create(ServerConfig.loopback(0), agentPort -> {
            try {
                tap.set(new TapProxy(TapConfig.loopback(0, URI.create("http://localhost:" + agentPort)), List.of(),
                        Clock.systemUTC()));
                tapPort = tap.get().start();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return RevisorCard.build(null, "http://localhost:" + tapPort + "/");
        }, new RevisorExecutor(Duration.ZERO));
        int agentPort = cleanup.start("agent", agent, AgentServer::start, AgentServer::openStreams);
        cleanup.register(() -> tap.get().stop());
        TapProxy wide = new TapProxy(new TapConfig("0.0.0.0", 0, URI.create("http://localhost:" + agentPort),
                TapConfig.DEFAULT_MAX_REQUEST_BYTES).withAllowedHosts(List.of("tap.example")), List.of(), Clock.systemUTC());
        wideTapPort = wide.start();
        cleanup.register(wide::stop);
    }

    @Test
    void aClientOfTheTapIsAnsweredByTheAgent() throws Exception {
        for (String host : List.of("localhost:" + tapPort, "127.0.0.1:" + tapPort, "[::1]:" + tapPort)) {
            RawHttp.Answer sent = RawHttp.postJson(tapPort, "/", host, null, SEND);
            RawHttp.Answer card = RawHttp.get(tapPort, "/.well-known/agent-card.json", host, null);

            assertThat(sent.status()).as(host).isEqualTo(200);
            assertThat(sent.body()).as(host).contains("TASK_STATE_COMPLETED");
            assertThat(card.status()).as(host).isEqualTo(200);
        }
    }

    /** A page of the tap's own origin (the agent's PUBLIC_URL) is the agent's own origin too. */
    @Test
    void aPageOfTheTapsOriginIsTheAgentsOwn() throws Exception {
        RawHttp.Answer a = RawHttp.get(tapPort, "/v1/tasks", "localhost:" + tapPort, "http://localhost:" + tapPort);

        assertThat(a.status()).isEqualTo(200);
    }

    @Test
    void aRebindingHostIsRefusedByTheTapAndNothingIsForwarded() throws Exception {
        RawHttp.Answer sent = RawHttp.postJson(tapPort, "/", "rebind.attacker.example:" + tapPort, null, SEND);
        RawHttp.Answer list = RawHttp.get(tapPort, "/v1/tasks", "rebind.attacker.example:" + tapPort, null);

        assertThat(sent.status()).isEqualTo(421);
        assertThat(sent.body()).contains("rebind.attacker.example").contains("nothing was forwarded");
        assertThat(list.status()).isEqualTo(421);
    }

    @Test
    void aPageOfAnotherOriginIsRefusedByTheAgentThroughTheTap() throws Exception {
        RawHttp.Answer a = RawHttp.postJson(tapPort, "/", "127.0.0.1:" + tapPort, "http://evil.example", SEND);

        assertThat(a.status()).isEqualTo(403);
        assertThat(a.body()).contains("CORS_ORIGINS");
    }

    // DEFECT (issue 30): a tap bound wider than loopback answered every Host, and rewrote it to the
    // agent's name, so a rebinding page under its own name ran a task on the agent. Now it answers
    // what the A2A server answers on the same bind: loopback names, the machine's interface
    // addresses, and TAP_ALLOWED_HOSTS.
    @Test
    void aTapBoundToEveryInterfaceRefusesARebindingHostToo() throws Exception {
        RawHttp.Answer sent = RawHttp.postJson(wideTapPort, "/", "rebind.attacker.example:" + wideTapPort, null, SEND);
        RawHttp.Answer list = RawHttp.get(wideTapPort, "/v1/tasks", "rebind.attacker.example", null);

        assertThat(sent.status()).isEqualTo(421);
        assertThat(sent.body()).contains("TAP_ALLOWED_HOSTS").contains("nothing was forwarded");
        assertThat(list.status()).isEqualTo(421);
    }

    @Test
    void aTapBoundToEveryInterfaceAnswersLoopbackItsAllowedNamesAndTheMachinesAddress() throws Exception {
        List<String> hosts = new ArrayList<>(List.of("localhost:" + wideTapPort, "127.0.0.1:" + wideTapPort,
                "tap.example:" + wideTapPort, "TAP.example"));
        String address = interfaceAddress();
        if (address != null) {
            hosts.add(address + ":" + wideTapPort);
        }
        for (String host : hosts) {
            RawHttp.Answer sent = RawHttp.postJson(wideTapPort, "/", host, null, SEND);

            assertThat(sent.status()).as(host).isEqualTo(200);
            assertThat(sent.body()).as(host).contains("TASK_STATE_COMPLETED");
        }
    }

    /** A non-loopback IPv4 address of this machine, as a caller on the network would dial it; null when it has none. */
    static String interfaceAddress() throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return a.getHostAddress();
                }
            }
        }
        return null;
    }
}
