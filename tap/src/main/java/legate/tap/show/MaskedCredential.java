package legate.tap.show;

/**
 * A credential as the tap shows it: enough to tell which one was sent, never enough to use it. The
 * scheme (Bearer, Basic, ...) stays, and of the secret only its last four characters, or none when
 * it is too short for four to be a small part of it.
 */
public final class MaskedCredential {
    /** Below this length the last four characters would give away too much of the secret. */
    private static final int MIN_LENGTH_TO_HINT = 12;
    private static final int HINT = 4;

    private MaskedCredential() {
    }

    /** An Authorization-style value: {@code Bearer abc…} becomes {@code Bearer …wxyz}. */
    public static String schemeAndSecret(String value) {
        String v = value.strip();
        int space = v.indexOf(' ');
        if (space > 0 && v.substring(0, space).matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
            return v.substring(0, space) + " " + secret(v.substring(space + 1).strip());
        }
        return secret(v);
    }

    /** A Cookie header: each cookie's name kept, its value masked. */
    public static String cookies(String value) {
        StringBuilder out = new StringBuilder();
        for (String pair : value.split(";")) {
            String p = pair.strip();
            if (p.isEmpty()) {
                continue;
            }
            if (!out.isEmpty()) {
                out.append("; ");
            }
            int eq = p.indexOf('=');
            out.append(eq < 0 ? secret(p) : p.substring(0, eq + 1) + secret(p.substring(eq + 1)));
        }
        return out.toString();
    }

    /** A bare secret (an API key, a cookie's value): its last four characters after an ellipsis. */
    public static String secret(String secret) {
        if (secret.length() < MIN_LENGTH_TO_HINT) {
            return "…(" + secret.length() + " chars)";
        }
        return "…" + secret.substring(secret.length() - HINT);
    }
}
