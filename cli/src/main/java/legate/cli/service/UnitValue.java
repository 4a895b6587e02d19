package legate.cli.service;

/**
 * A value from the configuration on its way into a service file. Each format has characters that
 * mean something (systemd expands {@code %} specifiers and {@code $} variables and reads C escapes
 * in quotes; XML has its five entities; a {@code .env} value ends at its quote), so each gets its
 * own escape, and what no format can carry (a line break, a control character) is refused with
 * the key it came from rather than written into a file that would mean something else.
 */
final class UnitValue {
    private UnitValue() {
    }

    /** Refuses a line break or other control character: a service file is read line by line. */
    static String checked(String what, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                throw new IllegalArgumentException(what + " holds a line break or control character, which a "
                        + "service file cannot carry; change it and install again");
            }
        }
        return value;
    }

    /**
     * One word of a systemd command line or one {@code Environment=} assignment, double-quoted:
     * inside quotes systemd reads C escapes, so backslash and quote are escaped; {@code %} starts a
     * specifier and {@code $} a variable (in {@code ExecStart=}), so both are doubled.
     */
    static String systemdQuoted(String what, String value) {
        checked(what, value);
        StringBuilder b = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '%' -> b.append("%%");
                case '$' -> b.append("$$");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /**
     * The program of a systemd command line: quoted, {@code %} doubled, but not {@code $}, which
     * systemd expands in arguments only. systemd refuses quotes and backslashes in an executable's
     * path whatever the escaping, so such a path is refused here, before a unit is written.
     */
    static String systemdExecutable(String what, String value) {
        checked(what, value);
        if (value.indexOf('"') >= 0 || value.indexOf('\'') >= 0 || value.indexOf('\\') >= 0) {
            throw new IllegalArgumentException(what + " (" + value + ") holds a quote or a backslash, which systemd "
                    + "refuses in the path of a program; move Legate to a folder without them and install again");
        }
        return "\"" + value.replace("%", "%%") + "\"";
    }

    /** A systemd setting that takes the rest of the line (a path, a description): specifiers only. */
    static String systemdPlain(String what, String value) {
        checked(what, value);
        if (value.endsWith("\\")) {
            // A trailing backslash continues the line in a unit file.
            throw new IllegalArgumentException(what + " ends with a backslash, which a systemd unit reads as a "
                    + "line continuation; change it and install again");
        }
        return value.replace("%", "%%");
    }

    /** Text content of a plist element. */
    static String xml(String what, String value) {
        checked(what, value);
        StringBuilder b = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /**
     * A {@code KEY=VALUE} line as Legate's {@code .env} reader takes it back: quoted, since a quoted
     * value keeps its spaces and a {@code #}, in whichever quote the value does not hold. The reader
     * has no escapes, so a value holding both quotes cannot be written.
     */
    static String dotenvLine(String key, String value) {
        checked(key, value);
        if (value.indexOf('"') < 0) {
            return key + "=\"" + value + "\"";
        }
        if (value.indexOf('\'') < 0) {
            return key + "='" + value + "'";
        }
        throw new IllegalArgumentException(key + " holds both a single and a double quote, which a .env file "
                + "cannot carry; change it and install again");
    }
}
