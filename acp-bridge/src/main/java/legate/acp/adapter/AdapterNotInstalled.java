package legate.acp.adapter;

/** A known adapter that is nowhere the documented lookup searches; the message says what to install. */
public final class AdapterNotInstalled extends Exception {
    public AdapterNotInstalled(String message) {
        super(message, null, false, false);
    }
}
