package legate.a2a.client;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an {@link A2aClient} talks to agents.
 *
 * @param connectTimeout bound on opening a TCP connection, for every call
 * @param cardTimeout bound on fetching the Agent Card, the whole exchange
 * @param callTimeout bound on the calls the agent answers without waiting for a turn to end: GetTask,
 *     ListTasks, CancelTask and a SendMessage with returnImmediately. A blocking SendMessage and the
 *     streams have no bound, because a turn of a real agent may take minutes
 * @param bindings what this client may dial, checked against the card in the card's order
 * @param headers extra headers on every request, such as {@code Authorization} (A2A §7.3)
 * @param resumption how a stream cut before its turn ended is resumed, where the agent allows it
 * @param credentials what the client proves itself with, sent as the card's securityRequirements ask
 *     (never with the public card's fetch)
 * @param trust the authorities accepted for https and the keys a card must be signed with (null: {@link ClientTrust#DEFAULTS})
 */
public record ClientConfig(Duration connectTimeout, Duration cardTimeout, Duration callTimeout,
                           List<Binding> bindings, Map<String, String> headers, Resumption resumption,
                           Credentials credentials, ClientTrust trust) {

    public ClientConfig {
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(cardTimeout, "cardTimeout");
        requirePositive(callTimeout, "callTimeout");
        bindings = List.copyOf(bindings);
        if (bindings.isEmpty()) {
            throw new IllegalArgumentException("a client needs at least one binding to dial");
        }
        for (Binding b : bindings) {
            if (Binding.IMPLEMENTED.stream().noneMatch(b.protocolBinding()::equalsIgnoreCase)) {
                throw new IllegalArgumentException("this client has no transport for " + b
                        + "; it implements " + Binding.IMPLEMENTED);
            }
        }
        headers = Map.copyOf(headers);
        if (resumption == null) {
            throw new IllegalArgumentException("resumption must be given; Resumption.OFF turns it off");
        }
        if (credentials == null) {
            credentials = Credentials.NONE;
        }
        if (trust == null) {
            trust = ClientTrust.DEFAULTS;
        }
    }

    /** A configuration without credentials, trusting the JDK's authorities. */
    public ClientConfig(Duration connectTimeout, Duration cardTimeout, Duration callTimeout,
                        List<Binding> bindings, Map<String, String> headers, Resumption resumption) {
        this(connectTimeout, cardTimeout, callTimeout, bindings, headers, resumption, Credentials.NONE, ClientTrust.DEFAULTS);
    }

    /** A configuration that resumes cut streams as {@link Resumption#DEFAULT} does. */
    public ClientConfig(Duration connectTimeout, Duration cardTimeout, Duration callTimeout,
                        List<Binding> bindings, Map<String, String> headers) {
        this(connectTimeout, cardTimeout, callTimeout, bindings, headers, Resumption.DEFAULT);
    }

    /**
     * Connect and card within 10 s, other bounded calls within 60 s, every binding this build speaks
     * (the card's order chooses), no extra headers, cut streams resumed ({@link Resumption#DEFAULT}).
     */
    public static ClientConfig defaults() {
        return new ClientConfig(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(60),
                Binding.implemented(), Map.of());
    }

    /** The same, dialling only {@code allowed} (still in the card's order): {@code --binding} forces one. */
    public ClientConfig withBindings(List<Binding> allowed) {
        return new ClientConfig(connectTimeout, cardTimeout, callTimeout, allowed, headers, resumption, credentials, trust);
    }

    public ClientConfig withTimeouts(Duration connect, Duration card, Duration call) {
        return new ClientConfig(connect, card, call, bindings, headers, resumption, credentials, trust);
    }

    public ClientConfig withResumption(Resumption how) {
        return new ClientConfig(connectTimeout, cardTimeout, callTimeout, bindings, headers, how, credentials, trust);
    }

    /** The same, proving itself with {@code given} where a card asks for it. */
    public ClientConfig withCredentials(Credentials given) {
        return new ClientConfig(connectTimeout, cardTimeout, callTimeout, bindings, headers, resumption, given, trust);
    }

    public ClientConfig withHeader(String name, String value) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put(name, value);
        return new ClientConfig(connectTimeout, cardTimeout, callTimeout, bindings, all, resumption, credentials, trust);
    }

    public ClientConfig withTrust(ClientTrust what) {
        return new ClientConfig(connectTimeout, cardTimeout, callTimeout, bindings, headers, resumption, credentials, what);
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration");
        }
    }
}
