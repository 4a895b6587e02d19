package legate.store.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The instance tables written and read the way another process would: a plain JDBC connection,
 * to leave behind an instance that stopped (a row whose heartbeat is old, or fresh as after a
 * {@code kill -9} a moment ago) without any seam in the code under test.
 */
final class InstanceTables {
    private final DatabaseUrl url;

    InstanceTables(DatabaseUrl url) {
        this.url = url;
    }

    /** An instance row whose last heartbeat was {@code agoMs} ago, holding {@code contexts}. */
    void instance(String id, String instanceUrl, long ttlMs, long agoMs, String... contexts) throws SQLException {
        try (Connection c = connect()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO legate.instances (id, url, ttl_ms, heartbeat_at)"
                    + " VALUES (?, ?, ?, now() - ? * interval '1 millisecond')")) {
                ps.setString(1, id);
                ps.setString(2, instanceUrl);
                ps.setLong(3, ttlMs);
                ps.setLong(4, agoMs);
                ps.executeUpdate();
            }
            for (String context : contexts) {
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO legate.context_leases (context_id, instance_id) VALUES (?, ?)")) {
                    ps.setString(1, context);
                    ps.setString(2, id);
                    ps.executeUpdate();
                }
            }
        }
    }

    /** A lease of {@code context} to the instance, taken {@code agoMs} ago. */
    void lease(String context, String instanceId, long agoMs) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO legate.context_leases"
                + " (context_id, instance_id, leased_at) VALUES (?, ?, now() - ? * interval '1 millisecond')")) {
            ps.setString(1, context);
            ps.setString(2, instanceId);
            ps.setLong(3, agoMs);
            ps.executeUpdate();
        }
    }

    /** How many rows the query counts. */
    long count(String sql, String arg) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Ends the server process of the connection that listens for notifications, as a network cut would. */
    int dropListeners() throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT count(pg_terminate_backend(pid))"
                + " FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "
                + EventNotifications.CHANNEL + "'"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url.jdbcUrl(), url.user(), url.password());
    }
}
