package legate.a2a.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import legate.a2a.client.internal.GrpcTransport;
import legate.a2a.client.internal.HttpExchange;
import legate.a2a.client.internal.JsonRpcTransport;
import legate.a2a.client.internal.ResumableStream;
import legate.a2a.client.internal.RestTransport;
import legate.a2a.client.internal.StreamProgress;
import legate.a2a.client.internal.TokenRenewingTransport;
import legate.a2a.client.internal.Transport;
import legate.a2a.model.A2aMethods;
import legate.a2a.model.LegateExtensions;
import legate.a2a.model.signature.CardVerdict;
import legate.a2a.model.signature.CardVerifier;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.DeleteTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskPushNotificationConfigRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsResponse;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * A client of one A2A v1.0 agent: discovers the agent from its card, dials the interface the card
 * advertises and calls the protocol's task operations there.
 *
 * <p>Discovery hardcodes neither the address nor the binding. {@link #connect} reads
 * {@code /.well-known/agent-card.json} under the base URL, picks the first interface the
 * {@link ClientConfig#bindings()} can speak, and sends every call to <em>that interface's URL</em>,
 * which may differ from where the card came from (a proxy such as {@code legate tap} named by
 * PUBLIC_URL, another host, another path).
 *
 * <p>One {@link HttpClient} per A2aClient, shared by every call and stream and closed by
 * {@link #close()}: an HttpClient owns a selector thread and a pool of kept-alive connections, so
 * one per call would pay a TCP handshake per request and leave threads behind until garbage
 * collection; one per process would tie every client's timeouts and lifetime together.
 *
 * <p>Every failure is an {@link A2aClientException}: an error the agent answered with
 * ({@link AgentErrorException}), a failed exchange ({@link TransportException}), an answer that is
 * not A2A ({@link InvalidResponseException}) or a failed discovery ({@link AgentCardException}).
 * Thread-safe; streams block the calling thread and deliver events to a {@link StreamListener}.
 *
 * <p>A stream cut before its turn ended (a broken connection, or the agent closing it early) is
 * resumed when the agent's card declares {@link LegateExtensions#RESUMABLE_STREAMS}: the client
 * calls SubscribeToTask with {@code Last-Event-ID} set to the last event it received and goes on
 * delivering to the same listener, with no event twice, as {@link ClientConfig#resumption()} allows.
 * Without the extension, or when the attempts fail, the stream ends as it was cut.
 */
public final class A2aClient implements AutoCloseable {
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final HttpClient http;
    private final AgentCard card;
    private final AgentInterface endpoint;
    private final Transport transport;
    private final ClientConfig config;
    private final ResumableStream streams;
    /** The gRPC channel when the chosen interface is gRPC (closed with the client), else null. */
    private final ManagedChannel grpc;
    private volatile boolean closed;
    private final CardVerdict verdict;
    /** The token endpoint's client when an access token is obtained for this agent (closed with the client), else null. */
    private final HttpClient tokenHttp;

    private A2aClient(HttpClient http, AgentCard card, URI cardUrl, ClientConfig config, CardVerdict verdict) {
        this.http = http;
        this.verdict = verdict;
        this.card = card;
        this.config = config;
        this.endpoint = Binding.choose(card, config.bindings());
        // PROTOCOL (A2A §7): the credential travels on every call, in the form the card asks for.
        Credentials.Met met = config.credentials().meet(card);
        this.tokenHttp = met != null && met.tokenScheme() != null ? tokenClient(config) : null;
        AccessTokens tokens = tokenHttp == null ? null : new AccessTokens(met.tokenScheme(),
                config.credentials().oauthClient(), met.scopes(), tokenHttp, config.cardTimeout(), Clock.systemUTC());
        Supplier<Map<String, String>> headers = callHeaders(met, tokens, config);
        Transport binding = transportFor(endpoint, new HttpExchange(http, headers), headers, card, cardUrl, config.trust());
        this.grpc = binding instanceof GrpcTransport g ? g.channel() : null;
        this.transport = tokens == null ? binding : new TokenRenewingTransport(binding, tokens);
        this.streams = new ResumableStream(transport, config.resumption(), declaresResumableStreams(card),
                () -> closed, taskId -> withTenant(SubscribeToTaskRequest.newBuilder().setId(taskId).build()));
    }

    /**
     * The headers of every call: the configured ones and the credential the card asks for, an
     * access token obtained with the client's OAuth 2 credentials included (renewed as it nears its
     * expiry, so asked for at each call).
     */
    private static Supplier<Map<String, String>> callHeaders(Credentials.Met met, AccessTokens tokens, ClientConfig config) {
        Map<String, String> fixed = new LinkedHashMap<>(config.headers());
        if (met != null) {
            fixed.putAll(met.headers());
        }
        if (tokens == null) {
            return () -> fixed;
        }
        return () -> {
            Map<String, String> withToken = new LinkedHashMap<>(fixed);
            withToken.put("Authorization", "Bearer " + tokens.current());
            return withToken;
        };
    }

    /**
     * The client of the token endpoint: the same trust, and no redirects, which would carry the
     * client's secret to wherever the endpoint points.
     */
    private static HttpClient tokenClient(ClientConfig config) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER);
        if (config.trust().tls() != null) {
            builder.sslContext(config.trust().tls());
        }
        return builder.build();
    }

    /** Whether a card declares Legate's resumable streams extension (A2A §4.6: capabilities.extensions). */
    public static boolean declaresResumableStreams(AgentCard card) {
        return card.getCapabilities().getExtensionsList().stream()
                .anyMatch(e -> e.getUri().equals(LegateExtensions.RESUMABLE_STREAMS));
    }

    /** Discovers the agent at {@code baseUrl} with the default configuration. */
    public static A2aClient connect(URI baseUrl) {
        return connect(baseUrl, ClientConfig.defaults());
    }

    /**
     * Fetches the card under {@code baseUrl} and prepares calls to the interface it advertises.
     *
     * @throws TransportException when the card cannot be fetched (refused, timed out)
     * @throws AgentCardException when there is no card or no interface this client speaks
     */
    public static A2aClient connect(URI baseUrl, ClientConfig config) {
        HttpClient http = newHttpClient(config);
        try {
            URI cardUrl = CardResolver.cardUrl(baseUrl);
            JsonNode json = new CardResolver(new HttpExchange(http, config.headers()), config.cardTimeout()).fetchJson(baseUrl);
            CardVerifier keys = config.trust().cardKeys();
            CardVerdict verdict = keys == null ? null : keys.verify(json);
            if (verdict instanceof CardVerdict.Refused refused) {
                // PROTOCOL (A2A §8.4): a card that fails verification is not used, not even its URL.
                throw new AgentCardException("the card at " + cardUrl + " is not trusted: " + refused.describe(), List.of());
            }
            return new A2aClient(http, CardResolver.read(json, cardUrl), cardUrl, config, verdict);
        } catch (RuntimeException e) {
            http.close();
            throw e;
        }
    }

    /** A client for a card obtained some other way (a registry, configuration); its interface URLs must be absolute. */
    public static A2aClient forCard(AgentCard card, ClientConfig config) {
        HttpClient http = newHttpClient(config);
        try {
            return new A2aClient(http, card, null, config, null);
        } catch (RuntimeException e) {
            http.close();
            throw e;
        }
    }

    public AgentCard card() {
        return card;
    }

    /** How the card's signature was checked against {@link ClientTrust#cardKeys()}; empty when it was not. */
    public Optional<CardVerdict> cardVerdict() {
        return Optional.ofNullable(verdict);
    }

    /** The interface of the card this client dials. */
    public AgentInterface endpoint() {
        return endpoint;
    }

    /** Whether this client resumes a cut stream: the card declares the extension and the config allows it. */
    public boolean resumesStreams() {
        return streams.enabled();
    }

    /** SendMessage, blocking: answers once the task is terminal or interrupted, or with the agent's Message. */
    public SendMessageResponse send(lf.a2a.v1.Message message) {
        return send(SendMessageRequest.newBuilder().setMessage(message).build());
    }

    /**
     * SendMessage with {@code returnImmediately}: answers as soon as the task exists, usually
     * SUBMITTED; follow it with {@link #subscribe} or {@link #getTask}.
     */
    public SendMessageResponse sendNonBlocking(lf.a2a.v1.Message message) {
        return send(SendMessageRequest.newBuilder().setMessage(message)
                .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)).build());
    }

    /**
     * SendMessage as given. PROTOCOL (A2A §3.2.2): blocking unless returnImmediately is set, so only
     * a non-blocking send is bounded by {@link ClientConfig#callTimeout()}.
     */
    public SendMessageResponse send(SendMessageRequest request) {
        Duration bound = request.getConfiguration().getReturnImmediately() ? config.callTimeout() : null;
        return transport.call(A2aMethods.SEND_MESSAGE, withTenant(request), SendMessageResponse.newBuilder(), bound).build();
    }

    /**
     * SendStreamingMessage: each event reaches the listener as it arrives; returns when the stream
     * ends, having resumed it where the agent allows (see the class comment).
     */
    public StreamEnd stream(lf.a2a.v1.Message message, StreamListener listener) {
        return stream(SendMessageRequest.newBuilder().setMessage(message).build(), listener);
    }

    public StreamEnd stream(SendMessageRequest request, StreamListener listener) {
        return streams.follow(A2aMethods.SEND_STREAMING_MESSAGE, withTenant(request), new StreamProgress(listener, null, null));
    }

    /** GetTask with the agent's default history. */
    public Task getTask(String taskId) {
        return getTask(GetTaskRequest.newBuilder().setId(taskId).build());
    }

    public Task getTask(GetTaskRequest request) {
        return transport.call(A2aMethods.GET_TASK, withTenant(request), Task.newBuilder(), config.callTimeout()).build();
    }

    /** CancelTask: the task as it is once canceled. */
    public Task cancelTask(String taskId) {
        return cancelTask(CancelTaskRequest.newBuilder().setId(taskId).build());
    }

    public Task cancelTask(CancelTaskRequest request) {
        return transport.call(A2aMethods.CANCEL_TASK, withTenant(request), Task.newBuilder(), config.callTimeout()).build();
    }

    /** ListTasks, one page; follow {@code nextPageToken} (empty on the last page) for more. */
    public ListTasksResponse listTasks(ListTasksRequest request) {
        return transport.call(A2aMethods.LIST_TASKS, withTenant(request), ListTasksResponse.newBuilder(),
                config.callTimeout()).build();
    }

    /**
     * CreateTaskPushNotificationConfig (A2A §3.1.7): a webhook for the task's events from now on;
     * the agent answers with the configuration as stored (its {@code id} made when none was given).
     */
    public TaskPushNotificationConfig createPushConfig(TaskPushNotificationConfig push) {
        return transport.call(A2aMethods.CREATE_PUSH_CONFIG, withTenant(push), TaskPushNotificationConfig.newBuilder(),
                config.callTimeout()).build();
    }

    /** GetTaskPushNotificationConfig (A2A §3.1.8). */
    public TaskPushNotificationConfig getPushConfig(String taskId, String configId) {
        return transport.call(A2aMethods.GET_PUSH_CONFIG, withTenant(GetTaskPushNotificationConfigRequest.newBuilder()
                .setTaskId(taskId).setId(configId).build()), TaskPushNotificationConfig.newBuilder(),
                config.callTimeout()).build();
    }

    /**
     * ListTaskPushNotificationConfigs (A2A §3.1.9), one page ({@code pageToken} "" for the first);
     * PEER (@a2a-js/sdk 1.2.0): an empty list comes back as {@code {}}, read as no configurations.
     */
    public ListTaskPushNotificationConfigsResponse listPushConfigs(String taskId, String pageToken) {
        return transport.call(A2aMethods.LIST_PUSH_CONFIGS, withTenant(ListTaskPushNotificationConfigsRequest.newBuilder()
                .setTaskId(taskId).setPageToken(pageToken).build()), ListTaskPushNotificationConfigsResponse.newBuilder(),
                config.callTimeout()).build();
    }

    /** DeleteTaskPushNotificationConfig (A2A §3.1.10): idempotent. */
    public void deletePushConfig(String taskId, String configId) {
        transport.call(A2aMethods.DELETE_PUSH_CONFIG, withTenant(DeleteTaskPushNotificationConfigRequest.newBuilder()
                .setTaskId(taskId).setId(configId).build()), Empty.newBuilder(), config.callTimeout());
    }

    /**
     * SubscribeToTask: a snapshot of the task first (A2A §3.1.6), then its live events until the
     * turn ends or the agent closes the stream.
     */
    public StreamEnd subscribe(String taskId, StreamListener listener) {
        return subscribe(taskId, null, listener);
    }

    /**
     * SubscribeToTask after an event already received: with {@code Last-Event-ID}, an agent that
     * declares {@link LegateExtensions#RESUMABLE_STREAMS} replays the task's events after that one,
     * then goes on live, instead of opening with the snapshot.
     *
     * @param lastEventId the id of the last event received ({@link StreamListener#onEvent(lf.a2a.v1.StreamResponse,
     *     String)}), or null for a plain subscription
     */
    public StreamEnd subscribe(String taskId, String lastEventId, StreamListener listener) {
        return streams.follow(A2aMethods.SUBSCRIBE_TO_TASK,
                withTenant(SubscribeToTaskRequest.newBuilder().setId(taskId).build()),
                new StreamProgress(listener, taskId, lastEventId));
    }

    /**
     * Releases the HttpClient at once: its connections close, and a call or stream still running on
     * another thread ends with a {@link TransportException}. (HttpClient.close() would instead wait
     * for them, and a stream has no bound.)
     */
    @Override
    public void close() {
        closed = true;
        if (grpc != null) {
            grpc.shutdownNow();
        }
        if (tokenHttp != null) {
            tokenHttp.shutdownNow();
        }
        http.shutdownNow();
        try {
            http.awaitTermination(CLOSE_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * PROTOCOL (A2A §8.3.2, v1.0.1): when the chosen interface names a tenant, the client copies it
     * into every request's {@code tenant} field; a tenant the caller set explicitly is kept.
     */
    private <M extends Message> M withTenant(M request) {
        String tenant = endpoint.getTenant();
        FieldDescriptor field = request.getDescriptorForType().findFieldByName("tenant");
        if (tenant.isEmpty() || field == null || !((String) request.getField(field)).isEmpty()) {
            return request;
        }
        @SuppressWarnings("unchecked")
        M stamped = (M) request.toBuilder().setField(field, tenant).build();
        return stamped;
    }

    /**
     * The transport of the chosen interface's binding. ClientConfig admits only the bindings of
     * {@link Binding#IMPLEMENTED}, and each of them has its case here.
     */
    private static Transport transportFor(AgentInterface chosen, HttpExchange exchange, Supplier<Map<String, String>> headers,
                                          AgentCard card, URI cardUrl, ClientTrust trust) {
        return switch (chosen.getProtocolBinding().strip().toUpperCase(Locale.ROOT)) {
            case "JSONRPC" -> new JsonRpcTransport(exchange, interfaceUrl(chosen, cardUrl));
            case "HTTP+JSON" -> new RestTransport(exchange, interfaceUrl(chosen, cardUrl));
            case "GRPC" -> GrpcChannels.transport(chosen, headers, GrpcChannels.usesTls(card, cardUrl), trust.tls());
            default -> throw new AgentCardException("this client has no transport for "
                    + Binding.describe(chosen), List.of(chosen));
        };
    }

    private static HttpClient newHttpClient(ClientConfig config) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(config.connectTimeout())
                // Agents on plain http are HTTP/1.1; the h2c upgrade attempt only adds headers that
                // proxies on the way (the tap) would have to pass through.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL);
        if (config.trust().tls() != null) {
            builder.sslContext(config.trust().tls());
        }
        return builder.build();
    }

    private static URI interfaceUrl(AgentInterface chosen, URI cardUrl) {
        try {
            URI url = new URI(chosen.getUrl().strip());
            if (url.isAbsolute()) {
                return url;
            }
            if (cardUrl != null) {
                return cardUrl.resolve(url);
            }
            throw new AgentCardException("the card's interface URL " + chosen.getUrl() + " is not absolute", List.of(chosen));
        } catch (URISyntaxException e) {
            throw new AgentCardException("the card's interface URL is not a URL: " + chosen.getUrl(), List.of(chosen));
        }
    }
}
