package legate.a2a.client;

import java.net.URI;

/**
 * The client could not obtain the credential the agent's card asks for: the authorization server
 * refused its client credentials, could not be reached, or answered something that is no token.
 * Nothing was sent to the agent.
 */
public final class CredentialException extends A2aClientException {
    private final URI endpoint;

    public CredentialException(URI endpoint, String message, Throwable cause) {
        super(message, cause);
        this.endpoint = endpoint;
    }

    /** The token endpoint, or the discovery document, that failed; null when the card named no usable URL. */
    public URI endpoint() {
        return endpoint;
    }
}
