package legate.acp.protocol;

/**
 * The ACP method names the bridge sends or answers, each written once. Agent methods are what the
 * bridge (the client) calls; client methods are what the agent calls back.
 */
public final class AcpMethods {
    /** PROTOCOL (ACP): the protocol version on the wire, an integer; an SDK's own version is another thing. */
    public static final int PROTOCOL_VERSION = 1;

    public static final String INITIALIZE = "initialize";
    public static final String SESSION_NEW = "session/new";
    public static final String SESSION_SET_MODE = "session/set_mode";
    /** PROTOCOL (ACP): only when initialize advertised agentCapabilities.loadSession; replays the history as updates. */
    public static final String SESSION_LOAD = "session/load";
    /** PROTOCOL (ACP): only when initialize advertised sessionCapabilities.resume; no replay. */
    public static final String SESSION_RESUME = "session/resume";
    public static final String SESSION_PROMPT = "session/prompt";
    /** PROTOCOL (ACP): a notification; the turn still ends with a prompt answer, stopReason "cancelled". */
    public static final String SESSION_CANCEL = "session/cancel";

    public static final String SESSION_UPDATE = "session/update";
    public static final String SESSION_REQUEST_PERMISSION = "session/request_permission";
    public static final String FS_READ_TEXT_FILE = "fs/read_text_file";
    public static final String FS_WRITE_TEXT_FILE = "fs/write_text_file";

    private AcpMethods() {
    }
}
