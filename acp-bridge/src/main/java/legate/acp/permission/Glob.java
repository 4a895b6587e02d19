package legate.acp.permission;

import java.util.regex.Pattern;

/**
 * A glob of a policy rule. Path globs: {@code *} matches within one name, {@code **} across names,
 * {@code ?} one character of a name. Command and title globs: {@code *} matches any characters,
 * spaces and slashes included, and {@code ?} any one.
 *
 * @param text the glob as written
 */
record Glob(String text, Pattern pattern) {

    static Glob path(String text) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '*' && i + 1 < text.length() && text.charAt(i + 1) == '*') {
                boolean slash = i + 2 < text.length() && text.charAt(i + 2) == '/';
                re.append(slash ? "(?:.*/)?" : ".*");
                i += slash ? 2 : 1;
            } else if (c == '*') {
                re.append("[^/]*");
            } else if (c == '?') {
                re.append("[^/]");
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return new Glob(text, Pattern.compile(re.toString(), Pattern.DOTALL));
    }

    static Glob anything(String text) {
        StringBuilder re = new StringBuilder();
        for (char c : text.toCharArray()) {
            re.append(switch (c) {
                case '*' -> ".*";
                case '?' -> ".";
                default -> Pattern.quote(String.valueOf(c));
            });
        }
        return new Glob(text, Pattern.compile(re.toString(), Pattern.DOTALL));
    }

    boolean absolute() {
        return text.startsWith("/");
    }

    boolean matches(String value) {
        return pattern.matcher(value).matches();
    }

    @Override
    public String toString() {
        return text;
    }
}
