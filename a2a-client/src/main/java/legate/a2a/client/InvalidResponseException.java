package legate.a2a.client;

/**
 * Something answered, but not as an A2A agent would: a body that is not a JSON-RPC response (an
 * HTML error page, a proxy's 502), or a result that is not the ProtoJSON the method promises.
 */
public final class InvalidResponseException extends A2aClientException {
    public InvalidResponseException(String message) {
        super(message, null);
    }
}
