package legate.mcp.upstream;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import legate.a2a.client.A2aClient;
import legate.a2a.client.A2aClientException;
import legate.a2a.client.ClientConfig;

/**
 * One configured agent and the client that reaches it, made by the card handshake (discovery,
 * A2A §8) once and shared by every tool call.
 *
 * <p>The handshake runs on a thread of its own, bounded by the client's card timeout, and callers
 * wait for it each with their own bound: one caller giving up ends only its own wait, and the others
 * still get the client. A failed handshake is not kept, so the next call tries again (the agent may
 * have started since). Thread-safe.
 */
public final class AgentLink implements AutoCloseable {
    private final String alias;
    private final URI baseUrl;
    private final ClientConfig config;
    private final AtomicReference<CompletableFuture<A2aClient>> handshake = new AtomicReference<>();

    AgentLink(String alias, URI baseUrl, ClientConfig config) {
        this.alias = alias;
        this.baseUrl = baseUrl;
        this.config = config;
    }

    public String alias() {
        return alias;
    }

    public URI baseUrl() {
        return baseUrl;
    }

    /**
     * The client, after the handshake when this is the first call (or the last one failed).
     *
     * @param wait how long this caller waits for a handshake in progress
     * @throws AgentUnavailable when the card cannot be had, or not within {@code wait}
     */
    public A2aClient client(Duration wait) {
        CompletableFuture<A2aClient> pending = pending();
        try {
            return pending.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new AgentUnavailable("agent " + alias + " at " + baseUrl + " did not hand over its agent card within "
                    + wait.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentUnavailable("interrupted while waiting for the agent card of " + alias);
        } catch (ExecutionException e) {
            String why = e.getCause() instanceof A2aClientException a ? a.getMessage() : String.valueOf(e.getCause());
            throw new AgentUnavailable("cannot reach agent " + alias + " at " + baseUrl + ": " + why);
        }
    }

    private CompletableFuture<A2aClient> pending() {
        while (true) {
            CompletableFuture<A2aClient> current = handshake.get();
            if (current != null) {
                return current;
            }
            CompletableFuture<A2aClient> mine = new CompletableFuture<>();
            if (handshake.compareAndSet(null, mine)) {
                Thread.ofVirtual().name("legate-mcp-card-" + alias).start(() -> shake(mine));
                return mine;
            }
        }
    }

    private void shake(CompletableFuture<A2aClient> mine) {
        try {
            mine.complete(A2aClient.connect(baseUrl, config));
        } catch (RuntimeException e) {
            // Forgotten before anyone hears of the failure, so a caller that retries starts afresh.
            handshake.compareAndSet(mine, null);
            mine.completeExceptionally(e);
        }
    }

    @Override
    public void close() {
        CompletableFuture<A2aClient> current = handshake.getAndSet(null);
        if (current != null && current.isDone() && !current.isCompletedExceptionally()) {
            current.join().close();
        }
    }
}
