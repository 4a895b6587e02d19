package legate.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.client.A2aClient;
import legate.a2a.client.ClientConfig;
import legate.mcp.FakeAgent;
import legate.testsupport.OwnThreads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The card handshake: cached per agent and shared, each caller with its own wait, failures not kept. */
class AgentLinkTest {
    private FakeAgent agent;
    private AgentLink link;

    @BeforeEach
    void start() throws Exception {
        agent = new FakeAgent("cards", FakeAgent.Script.CUT);
        agent.start();
        link = new AgentLink("cards", URI.create(agent.url()), ClientConfig.defaults());
    }

    @AfterEach
    void stop() {
        link.close();
        agent.close();
    }

    @Test
    void theHandshakeHappensOnceAndEveryCallerSharesIt() {
        A2aClient first = link.client(Duration.ofSeconds(10));
        A2aClient second = link.client(Duration.ofSeconds(10));

        assertThat(second).isSameAs(first);
        assertThat(agent.cardFetches()).isEqualTo(1);
    }

    // One caller giving up ends only its own wait: the handshake goes on for the others.
    @Test
    void aCallerThatGivesUpDoesNotEndTheHandshakeForAnother() throws Exception {
        CountDownLatch gate = agent.holdCards();
        assertThatThrownBy(() -> link.client(Duration.ofMillis(100))).isInstanceOf(AgentUnavailable.class)
                .hasMessageContaining("within 100 ms");
        CompletableFuture<A2aClient> patient = CompletableFuture.supplyAsync(() -> link.client(Duration.ofSeconds(10)), OwnThreads.EACH);

        gate.countDown();

        assertThat(patient.get(10, TimeUnit.SECONDS).card().getName()).isEqualTo("cards");
        assertThat(agent.cardFetches()).isEqualTo(1);
    }

    // An agent that was down a moment ago may be up now: a failed handshake is not cached.
    @Test
    void aFailedHandshakeIsNotKeptSoTheNextCallTriesAgain() {
        agent.refuseCards(1);

        assertThatThrownBy(() -> link.client(Duration.ofSeconds(10))).isInstanceOf(AgentUnavailable.class)
                .hasMessageContaining("cannot reach agent cards").hasMessageContaining("404");
        assertThat(link.client(Duration.ofSeconds(10)).card().getName()).isEqualTo("cards");
        assertThat(agent.cardFetches()).isEqualTo(2);
    }
}
