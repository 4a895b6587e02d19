package legate.store.postgres;

import java.net.URI;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import legate.a2a.server.task.StoredTask;

/**
 * The {@code instances} and {@code context_leases} tables (V3__instances.sql): which instances are
 * alive, judged by the database's clock against each one's own time to live, and which instance
 * holds each conversation. One statement per call on a pooled connection; a failure is a
 * {@link PostgresStoreException}.
 */
final class ContextLeases {
    private static final String LIVE = "i.heartbeat_at + i.ttl_ms * interval '1 millisecond' >= now()";
    private static final int PLACE_ATTEMPTS = 5;

    /** An instance as the table has it; {@link #toString} is how a status message names it. */
    record Instance(String id, String url) {
        @Override
        public String toString() {
            return "the instance " + id + " at " + url;
        }
    }

    /** Where a conversation runs, as {@link #place} found it. */
    sealed interface Placement {
        /** This instance holds the lease (it just took a free one, or already had it). */
        record Here() implements Placement {
        }

        /** A live instance holds it. */
        record Elsewhere(Instance holder) implements Placement {
        }

        /** This instance took the lease over from an instance that is gone; its running tasks there must fail. */
        record TakenOver(Instance previous) implements Placement {
        }
    }

    private final DataSource dataSource;

    ContextLeases(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Registers the instance (a row of its previous run with the same id is replaced), heartbeat now. */
    void register(String id, URI url, Duration ttl) {
        update("registering instance " + id, """
                INSERT INTO instances (id, url, ttl_ms) VALUES (?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, ttl_ms = EXCLUDED.ttl_ms,
                  started_at = now(), heartbeat_at = now()""", id, url.toString(), ttl.toMillis());
    }

    /**
     * The secret the instances share (V5), made by the first one that asks: a concurrent first ask
     * inserts nothing, and both read the one row that won.
     */
    byte[] peerKey(SecureRandom random) {
        byte[] fresh = new byte[32];
        random.nextBytes(fresh);
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = prepare(c, "INSERT INTO peer_key (id, key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                    (Object) fresh)) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT key FROM peer_key WHERE id = 1");
                 ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new PostgresStoreException("PostgreSQL lost the instances' shared key as it was made", null);
                }
                return rs.getBytes(1);
            }
        } catch (SQLException e) {
            throw failed("the instances' shared key", e);
        }
    }

    /** Renews the instance's heartbeat; false when its row is gone (another instance found it lost). */
    boolean heartbeat(String id) {
        return update("the heartbeat of instance " + id, "UPDATE instances SET heartbeat_at = now() WHERE id = ?", id) == 1;
    }

    /** The rows an earlier run of this process left: the same id, or the same URL (two live instances cannot listen on one). */
    List<Instance> previousRuns(String id, URI url) {
        return instances("the previous runs of instance " + id,
                "SELECT id, url FROM instances WHERE id = ? OR url = ?", id, url.toString());
    }

    /** The instances other than {@code self} whose heartbeat expired. */
    List<Instance> expired(String self) {
        return instances("the expired instances", "SELECT i.id, i.url FROM instances i WHERE NOT (" + LIVE
                + ") AND i.id <> ?", self);
    }

    /** SUBMITTED or WORKING tasks in the conversations the instance holds: the runs that die with it. */
    List<StoredTask> unsettledOf(String instanceId) {
        return tasks("the running tasks of instance " + instanceId, """
                SELECT t.id, t.task, t.last_seq, coalesce(t.owner, ''), t.context_id, t.state FROM tasks t
                JOIN context_leases l ON l.context_id = t.context_id
                WHERE l.instance_id = ? AND t.state IN (1, 2)""", instanceId);
    }

    /** SUBMITTED or WORKING tasks in conversations no instance holds (left by a Legate that ran alone). */
    List<StoredTask> unsettledUnleased() {
        return tasks("the running tasks of no instance", """
                SELECT t.id, t.task, t.last_seq, coalesce(t.owner, ''), t.context_id, t.state FROM tasks t
                WHERE t.state IN (1, 2) AND NOT EXISTS (SELECT 1 FROM context_leases l WHERE l.context_id = t.context_id)""");
    }

    /** SUBMITTED or WORKING tasks of one conversation. */
    List<StoredTask> unsettledIn(String contextId) {
        return tasks("the running tasks of context " + contextId,
                "SELECT t.id, t.task, t.last_seq, coalesce(t.owner, ''), t.context_id, t.state FROM tasks t"
                        + " WHERE t.context_id = ? AND t.state IN (1, 2)", contextId);
    }

    /**
     * Frees the leases of conversations that have no task left (retention took them) and were
     * leased over an hour ago; returns how many. The hour spares a new conversation leased a moment
     * before its first task is committed, which would otherwise run on two instances.
     */
    int forgetEmptyConversations() {
        return update("the leases of conversations without tasks", """
                DELETE FROM context_leases l WHERE l.leased_at < now() - interval '1 hour'
                AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.context_id = l.context_id)""");
    }

    /** Deletes the instance's row, and with it its leases. */
    void forget(String instanceId) {
        update("forgetting instance " + instanceId, "DELETE FROM instances WHERE id = ?", instanceId);
    }

    /**
     * Leases the context to {@code self} when it is free or its holder is gone, and says where it
     * runs. Each step is one statement that succeeds for one instance only, so two instances
     * placing the same context at once never both run it.
     */
    Placement place(String contextId, String self) {
        for (int attempt = 0; attempt < PLACE_ATTEMPTS; attempt++) {
            if (update("leasing context " + contextId, "INSERT INTO context_leases (context_id, instance_id)"
                    + " VALUES (?, ?) ON CONFLICT (context_id) DO NOTHING", contextId, self) == 1) {
                return new Placement.Here();
            }
            List<Holder> found = holders(contextId);
            if (found.isEmpty()) {
                continue; // its holder was forgotten in between: the lease is free again
            }
            Holder h = found.get(0);
            if (h.instance().id().equals(self)) {
                return new Placement.Here();
            }
            if (h.live()) {
                return new Placement.Elsewhere(h.instance());
            }
            if (update("taking over context " + contextId, "UPDATE context_leases SET instance_id = ?, leased_at = now()"
                    + " WHERE context_id = ? AND instance_id = ?", self, contextId, h.instance().id()) == 1) {
                return new Placement.TakenOver(h.instance());
            }
        }
        throw new PostgresStoreException("the lease of context " + contextId + " changed hands " + PLACE_ATTEMPTS
                + " times while this instance tried to place it", null);
    }

    private record Holder(Instance instance, boolean live) {
    }

    private List<Holder> holders(String contextId) {
        String sql = "SELECT i.id, i.url, " + LIVE + " FROM context_leases l JOIN instances i ON i.id = l.instance_id"
                + " WHERE l.context_id = ?";
        List<Holder> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql, contextId);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new Holder(new Instance(rs.getString(1), rs.getString(2)), rs.getBoolean(3)));
            }
        } catch (SQLException e) {
            throw failed("the holder of context " + contextId, e);
        }
        return out;
    }

    private List<Instance> instances(String what, String sql, Object... args) {
        List<Instance> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql, args);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new Instance(rs.getString(1), rs.getString(2)));
            }
        } catch (SQLException e) {
            throw failed(what, e);
        }
        return out;
    }

    private List<StoredTask> tasks(String what, String sql, Object... args) {
        List<StoredTask> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql, args);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(TaskListing.stored(rs, 1));
            }
        } catch (SQLException e) {
            throw failed(what, e);
        }
        return out;
    }

    private int update(String what, String sql, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql, args)) {
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw failed(what, e);
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... args) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i]);
        }
        return ps;
    }

    private static PostgresStoreException failed(String what, SQLException e) {
        return new PostgresStoreException("PostgreSQL could not read or write " + what + ": " + e.getMessage(), e);
    }
}
