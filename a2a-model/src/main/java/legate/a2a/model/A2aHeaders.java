package legate.a2a.model;

/** The HTTP headers A2A v1.0 defines as service parameters (A2A §3.2.6, §3.6). */
public final class A2aHeaders {
    /**
     * PROTOCOL (A2A §3.6): Major.Minor of the protocol the client speaks, on every request; an
     * absent or empty value means 0.3. Also accepted as a query parameter of the same name (§3.6.1).
     */
    public static final String VERSION = "A2A-Version";
    /** PROTOCOL (A2A §3.2.6): comma-separated extension URIs the client asks to activate. */
    public static final String EXTENSIONS = "A2A-Extensions";
    /** The protocol version Legate speaks. */
    public static final String PROTOCOL_VERSION = "1.0";

    private A2aHeaders() {
    }
}
