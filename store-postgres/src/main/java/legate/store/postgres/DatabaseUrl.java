package legate.store.postgres;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the PostgreSQL store connects, read from {@code DATABASE_URL}: the JDBC URL without any
 * credential in it, and the user and password beside it.
 *
 * <p>Two spellings are accepted. The libpq one that hosting providers hand out,
 * {@code postgres://user:pass@host:port/db?sslmode=require} (or {@code postgresql://}), with the
 * user and password percent-encoded as in any URL, several hosts separated by commas, port 5432
 * where none is written, and the query parameters passed on to the driver. And a JDBC URL,
 * {@code jdbc:postgresql://host:port/db?...}, passed on as it is, except that {@code user} and
 * {@code password} parameters are taken out of it.
 *
 * <p>The password never leaves this record except towards the driver: {@link #toString()} and
 * every error message name the host, database and user only, so a URL can be logged and a typo
 * reported without printing the secret.
 *
 * @param jdbcUrl the URL handed to the driver; it carries no user and no password
 * @param user empty when the URL names none (the driver then uses its default)
 * @param password empty when the URL holds none
 */
public record DatabaseUrl(String jdbcUrl, String user, String password) {
    private static final String JDBC_PREFIX = "jdbc:postgresql://";
    private static final int DEFAULT_PORT = 5432;

    /**
     * Reads a {@code DATABASE_URL}.
     *
     * @throws IllegalArgumentException naming what is wrong, never quoting the value (it may hold the password)
     */
    public static DatabaseUrl parse(String url) {
        String value = url == null ? "" : url.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.startsWith(JDBC_PREFIX)) {
            return fromJdbc(value);
        }
        for (String scheme : List.of("postgres://", "postgresql://")) {
            if (lower.startsWith(scheme)) {
                return fromLibpq(value.substring(scheme.length()));
            }
        }
        throw new IllegalArgumentException("DATABASE_URL must start with postgres://, postgresql:// or jdbc:postgresql://"
                + (value.isEmpty() ? " (it is empty)" : ""));
    }

    private static DatabaseUrl fromLibpq(String rest) {
        int slash = indexOf(rest, '/');
        int question = indexOf(rest, '?');
        int authorityEnd = Math.min(slash, question);
        String authority = rest.substring(0, authorityEnd);
        String database = slash < question ? rest.substring(slash + 1, question) : "";
        String query = question < rest.length() ? rest.substring(question + 1) : "";

        // The last '@' ends the credentials: a password may hold an unencoded '@', a host never does.
        int at = authority.lastIndexOf('@');
        String user = "";
        String password = "";
        if (at >= 0) {
            String userInfo = authority.substring(0, at);
            int colon = userInfo.indexOf(':');
            user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon), "user name");
            password = colon < 0 ? "" : decode(userInfo.substring(colon + 1), "password");
            authority = authority.substring(at + 1);
        }
        List<String> hosts = new ArrayList<>();
        for (String host : authority.split(",", -1)) {
            hosts.add(hostAndPort(host));
        }
        StringBuilder jdbc = new StringBuilder(JDBC_PREFIX).append(String.join(",", hosts))
                .append('/').append(encodePath(decode(database, "database name")));
        Query params = Query.parse(query);
        user = params.user().isEmpty() ? user : params.user();
        password = params.password().isEmpty() ? password : params.password();
        if (!params.rest().isEmpty()) {
            jdbc.append('?').append(params.rest());
        }
        return new DatabaseUrl(jdbc.toString(), user, password);
    }

    private static DatabaseUrl fromJdbc(String value) {
        int question = value.indexOf('?');
        if (question < 0) {
            return new DatabaseUrl(value, "", "");
        }
        Query params = Query.parse(value.substring(question + 1));
        String base = value.substring(0, question);
        return new DatabaseUrl(params.rest().isEmpty() ? base : base + "?" + params.rest(), params.user(), params.password());
    }

    /** {@code host}, {@code host:port}, {@code [::1]} or {@code [::1]:port}, with the default port filled in. */
    private static String hostAndPort(String hostPort) {
        String host;
        String port;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("DATABASE_URL has an IPv6 host without its closing ']'");
            }
            host = hostPort.substring(0, close + 1);
            String after = hostPort.substring(close + 1);
            port = after.startsWith(":") ? after.substring(1) : after;
        } else {
            int colon = hostPort.indexOf(':');
            host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            port = colon < 0 ? "" : hostPort.substring(colon + 1);
        }
        if (host.isEmpty()) {
            // libpq would use a Unix socket here; the JDBC driver speaks TCP only.
            host = "localhost";
        }
        if (port.isEmpty()) {
            return host + ":" + DEFAULT_PORT;
        }
        if (!port.chars().allMatch(Character::isDigit) || port.length() > 5 || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("DATABASE_URL has a port that is not a number from 0 to 65535 (host "
                    + host + ")");
        }
        return host + ":" + port;
    }

    private static String decode(String s, String what) {
        try {
            // URLDecoder turns '+' into a space, as a form would; in a URL's user info '+' is itself.
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("DATABASE_URL has a malformed percent-encoding in its " + what);
        }
    }

    private static String encodePath(String database) {
        StringBuilder out = new StringBuilder();
        for (byte b : database.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (Character.isLetterOrDigit(c) && c < 128 || "-._~".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }

    private static int indexOf(String s, char c) {
        int i = s.indexOf(c);
        return i < 0 ? s.length() : i;
    }

    /** The credentials in a query string, and the other parameters as they were written. */
    private record Query(String user, String password, String rest) {
        static Query parse(String query) {
            String user = "";
            String password = "";
            List<String> rest = new ArrayList<>();
            for (String param : query.split("&")) {
                if (param.isEmpty()) {
                    continue;
                }
                int eq = param.indexOf('=');
                String name = eq < 0 ? param : param.substring(0, eq);
                String value = eq < 0 ? "" : param.substring(eq + 1);
                switch (name) {
                    case "user" -> user = decode(value, "user parameter");
                    case "password" -> password = decode(value, "password parameter");
                    default -> rest.add(param);
                }
            }
            return new Query(user, password, String.join("&", rest));
        }
    }

    /** The URL and user, with the password replaced: safe to log. */
    @Override
    public String toString() {
        return jdbcUrl + (user.isEmpty() ? "" : " as " + user) + (password.isEmpty() ? "" : " (password set)");
    }
}
