package legate.a2a.server.push;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import java.time.Clock;
import java.util.function.Supplier;
import java.util.List;
import java.util.UUID;
import java.util.random.RandomGenerator;
import legate.a2a.server.OnFirstUse;
import legate.a2a.model.A2aError;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.StoredPushConfig;
import legate.a2a.server.task.TaskStore;
import lf.a2a.v1.ListTaskPushNotificationConfigsResponse;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * Push notifications (A2A §3.1.7-3.1.10, §4.3): the configurations of tasks, checked and stored,
 * and the dispatcher that delivers their events. The request handler checks that the caller owns
 * the task before it calls here; this class checks the configuration itself.
 */
public final class PushNotifications implements AutoCloseable {
    /** How many webhooks one task may have: each costs a delivery per event. */
    public static final int MAX_CONFIGS_PER_TASK = 16;
    private static final int MAX_PAGE_SIZE = 100;

    private final TaskStore store;
    private final WebhookGuard guard;
    private final Supplier<CardSigningKey> key;
    private final PushDispatcher dispatcher;

    /**
     * @param store where configurations and their progress are kept: the store the task runtime
     *              appends to through {@link #watching}
     * @param issuer the {@code iss} of every delivery's JWT (the agent's URL), or null
     */
    public PushNotifications(PushSettings settings, TaskStore store, Clock clock, ServerMetrics metrics, String issuer,
                             RandomGenerator random) {
        this.store = store;
        this.guard = new WebhookGuard(settings.allowed(), settings.resolver());
        // Made when a webhook is first posted to or the JWKS first read, not at start: most servers
        // never send a push notification, and both cost a sixth of a cold start.
        this.key = settings.signingKey() != null ? settings::signingKey : new OnFirstUse<>(PushNotifications::ephemeralKey);
        WebhookPost post = new WebhookPost(guard, new OnFirstUse<>(settings::client), key, issuer,
                settings.policy().timeout());
        this.dispatcher = new PushDispatcher(store, post, settings.policy(), clock, random, metrics);
    }

    private static CardSigningKey ephemeralKey() {
        try {
            ECKey ec = new ECKeyGenerator(Curve.P_256).generate();
            return CardSigningKey.of(ec.toPrivateKey(), ec.toPublicKey());
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot make a P-256 key to sign push notifications with", e);
        }
    }

    /** The public key a receiver verifies deliveries with, for the JWKS. */
    public JWK publicJwk() {
        return key.get().publicJwk();
    }

    /** {@code store}, telling the dispatcher of every event appended through it. */
    public TaskStore watching(TaskStore store) {
        return new PushingTaskStore(store, dispatcher);
    }

    /** Resumes the deliveries the last run left pending, alone on the store. */
    public void start() {
        start(InstanceGroup.ALONE);
    }

    /**
     * Resumes the deliveries left pending that are this instance's to make, once {@code group}
     * has been joined. Alone on the store, all of them. In a group, every instance starts over the
     * same table, and each resuming every row would post each pending event once per instance:
     * a configuration is resumed only by the instance that wins its task's conversation lease
     * ({@link InstanceGroup#runnerElsewhere}, an atomic claim that a live peer keeps and a gone
     * instance loses), the same rule that decides which instance fails a task left running, and
     * the instance whose appends will wake the webhook for the conversation's next turns.
     */
    public void start(InstanceGroup group) {
        dispatcher.start(group.alone() ? c -> true : c -> claimed(group, c));
    }

    private boolean claimed(InstanceGroup group, StoredPushConfig config) {
        // A task not stored yet is a live peer's new one, its first event still on its way to the
        // store: the peer that registered the configuration pumps it.
        return store.load(config.taskId())
                .map(t -> group.runnerElsewhere(t.task().getContextId()).isEmpty()).orElse(false);
    }

    /**
     * Checks a configuration as a caller gave it: a URL that passes the guard, credentials that fit
     * in a header. PROTOCOL (A2A §13.2): a refused URL is -32602 naming the rule, before anything is stored.
     */
    public void check(TaskPushNotificationConfig config) {
        if (config.getUrl().isEmpty()) {
            throw A2aError.INVALID_PARAMS.exception("the push notification configuration's url is required");
        }
        try {
            guard.check(config.getUrl());
        } catch (WebhookRefused e) {
            throw A2aError.INVALID_PARAMS.exception(e.getMessage());
        }
        if (config.hasAuthentication()) {
            String scheme = config.getAuthentication().getScheme();
            // PROTOCOL (A2A §4.3.3): scheme is an HTTP authentication scheme, a token (RFC 9110 §11.1).
            if (!scheme.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
                throw A2aError.INVALID_PARAMS.exception("authentication.scheme must be an HTTP authentication scheme"
                        + " such as Bearer, got \"" + scheme + "\"");
            }
            headerValue("authentication.credentials", config.getAuthentication().getCredentials());
        }
        headerValue("token", config.getToken());
    }

    private static void headerValue(String field, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f || c > 0xff) {
                throw A2aError.INVALID_PARAMS.exception(field + " holds a character an HTTP header cannot carry");
            }
        }
    }

    /**
     * Registers {@code config} on {@code taskId} (its id made when it has none), to receive the
     * task's events after {@code afterSeq}: those after the registration.
     */
    public TaskPushNotificationConfig register(TaskPushNotificationConfig config, String taskId, long afterSeq) {
        check(config);
        TaskPushNotificationConfig stored = config.toBuilder().setTaskId(taskId)
                .setId(config.getId().isEmpty() ? UUID.randomUUID().toString() : config.getId()).build();
        requireRoom(taskId, stored.getId());
        StoredPushConfig registered = StoredPushConfig.registered(stored, afterSeq);
        store.savePushConfig(registered);
        dispatcher.registered(registered);
        return stored;
    }

    /** -32602 when the task has {@link #MAX_CONFIGS_PER_TASK} configurations and {@code id} is none of them. */
    public void requireRoom(String taskId, String id) {
        List<StoredPushConfig> existing = store.pushConfigs(taskId);
        boolean replaces = existing.stream().anyMatch(c -> c.id().equals(id));
        if (!replaces && existing.size() >= MAX_CONFIGS_PER_TASK) {
            throw A2aError.INVALID_PARAMS.exception("task " + taskId + " has " + MAX_CONFIGS_PER_TASK
                    + " push notification configurations already, the most it may have; delete one first");
        }
    }

    /**
     * With several instances: a turn of {@code taskId} is about to run here, so its webhooks are
     * this instance's to wake, those registered on an instance that has since gone included (its
     * conversation was taken over by this one).
     */
    public void adopt(String taskId) {
        dispatcher.adopt(taskId);
    }

    /** PEER (@a2a-js/sdk 1.2.0): an unknown configuration is -32001, as an unknown task. */
    public TaskPushNotificationConfig get(String taskId, String id) {
        return store.pushConfigs(taskId).stream().filter(c -> c.id().equals(id)).findFirst()
                .map(StoredPushConfig::config)
                .orElseThrow(() -> A2aError.TASK_NOT_FOUND.exception("Push notification configuration " + id
                        + " not found for task " + taskId));
    }

    /** One page of the task's configurations, oldest first; the page token is the id the next page starts at. */
    public ListTaskPushNotificationConfigsResponse list(String taskId, int pageSize, String pageToken) {
        if (pageSize < 0 || pageSize > MAX_PAGE_SIZE) {
            throw A2aError.INVALID_PARAMS.exception("pageSize must be between 1 and " + MAX_PAGE_SIZE + ", got " + pageSize);
        }
        int size = pageSize == 0 ? MAX_PAGE_SIZE : pageSize;
        List<StoredPushConfig> all = store.pushConfigs(taskId);
        int from = 0;
        if (!pageToken.isEmpty()) {
            from = -1;
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).id().equals(pageToken)) {
                    from = i;
                }
            }
            if (from < 0) {
                throw A2aError.INVALID_PARAMS.exception("pageToken was not issued for this task's configurations");
            }
        }
        ListTaskPushNotificationConfigsResponse.Builder out = ListTaskPushNotificationConfigsResponse.newBuilder();
        int to = Math.min(all.size(), from + size);
        for (int i = from; i < to; i++) {
            out.addConfigs(all.get(i).config());
        }
        if (to < all.size()) {
            out.setNextPageToken(all.get(to).id());
        }
        return out.build();
    }

    /** PEER (@a2a-js/sdk 1.2.0): deleting is idempotent; an unknown id is not an error. */
    public void delete(String taskId, String id) {
        store.deletePushConfig(taskId, id);
        dispatcher.removed(taskId, id);
    }

    /** How many configurations have a pump in memory now. */
    public int tracked() {
        return dispatcher.tracked();
    }

    @Override
    public void close() {
        dispatcher.close();
    }
}
