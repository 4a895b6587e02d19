package legate.a2a.client;

import java.util.List;
import lf.a2a.v1.AgentInterface;

/**
 * Discovery failed (A2A §8): there is no Agent Card at the address, it is not a card, or the card
 * offers no interface this client can dial. In the last case {@link #offered()} lists what it offered.
 */
public final class AgentCardException extends A2aClientException {
    private final List<AgentInterface> offered;

    public AgentCardException(String message, List<AgentInterface> offered) {
        super(message, null);
        this.offered = List.copyOf(offered);
    }

    /** The card's supportedInterfaces, empty when no card was read. */
    public List<AgentInterface> offered() {
        return offered;
    }
}
