package legate.a2a.client;

/**
 * Why an A2A call did not produce its result, in one of five kinds a caller can tell apart with a
 * {@code switch}: the agent answered with an error ({@link AgentErrorException}), the exchange
 * itself failed ({@link TransportException}), something answered but not as an A2A agent
 * ({@link InvalidResponseException}), or discovery found no card or nothing in it this client can
 * dial ({@link AgentCardException}).
 *
 * <p>Unchecked, because streams deliver events to a callback and an exception must be able to cross
 * it. The message is one line written for a person.
 */
public abstract sealed class A2aClientException extends RuntimeException
        permits AgentErrorException, TransportException, InvalidResponseException, AgentCardException,
        CredentialException {

    protected A2aClientException(String message, Throwable cause) {
        super(message, cause);
    }
}
