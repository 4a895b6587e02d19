package legate.a2a.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import legate.a2a.model.A2aException;
import legate.a2a.model.ProtoJson;
import legate.a2a.server.auth.CallerAuthentication;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCard;

/**
 * Who may call a server and how much each caller may run (README "Security"): the schemes that
 * authenticate callers, the extended Agent Card authenticated callers get, and the most tasks one
 * principal may have running at once.
 *
 * @param authentication the schemes; {@link CallerAuthentication#NONE} makes every caller anonymous
 * @param extendedCard merged over the public card for GetExtendedAgentCard, or null for none
 * @param maxTasksPerPrincipal the most running tasks per principal (MAX_TASKS_PER_PRINCIPAL); 0: no limit
 * @param maxStreamsPerPrincipal the most streams one principal holds open at once, on all bindings together
 *     (MAX_STREAMS_PER_PRINCIPAL); 0: no limit
 */
public record ServerSecurity(CallerAuthentication authentication, AgentCard extendedCard, int maxTasksPerPrincipal,
                             int maxStreamsPerPrincipal) {
    /** No authentication, no extended card, no limits: what a server built in a test gets. */
    public static final ServerSecurity NONE = new ServerSecurity(CallerAuthentication.NONE, null, 0, 0);
    /** MAX_TASKS_PER_PRINCIPAL's default for {@code legate bridge} ({@code legate agent} has none). */
    public static final int DEFAULT_MAX_TASKS_PER_PRINCIPAL = 4;
    /**
     * MAX_STREAMS_PER_PRINCIPAL's default: at about 16 KiB and a descriptor per held stream
     * (docs/benchmarks.md, workload 4), 1,000 streams are some 16 MiB, far more than a client
     * following its own tasks needs and far less than the server's memory.
     */
    public static final int DEFAULT_MAX_STREAMS_PER_PRINCIPAL = 1000;

    public ServerSecurity {
        if (authentication == null) {
            authentication = CallerAuthentication.NONE;
        }
        if (maxTasksPerPrincipal < 0) {
            throw new IllegalArgumentException("maxTasksPerPrincipal must be >= 0, got " + maxTasksPerPrincipal);
        }
        if (maxStreamsPerPrincipal < 0) {
            throw new IllegalArgumentException("maxStreamsPerPrincipal must be >= 0, got " + maxStreamsPerPrincipal);
        }
    }

    /** With the default stream limit ({@link #DEFAULT_MAX_STREAMS_PER_PRINCIPAL}). */
    public ServerSecurity(CallerAuthentication authentication, AgentCard extendedCard, int maxTasksPerPrincipal) {
        this(authentication, extendedCard, maxTasksPerPrincipal, DEFAULT_MAX_STREAMS_PER_PRINCIPAL);
    }

    /**
     * The public card as served: the executor's card with the schemes declared and, when an
     * extended card is configured, {@code capabilities.extendedAgentCard} true.
     */
    public AgentCard publicCard(AgentCard card) {
        AgentCard declared = authentication.declareOn(card);
        if (extendedCard == null) {
            return declared;
        }
        AgentCard.Builder b = declared.toBuilder();
        b.getCapabilitiesBuilder().setExtendedAgentCard(true);
        return b.build();
    }

    /**
     * What GetExtendedAgentCard answers: the public card with the configured one merged over it
     * (protobuf merge: a field set there replaces the public one, lists such as skills are appended);
     * null when none is configured.
     */
    public AgentCard extendedCardOver(AgentCard publicCard) {
        if (extendedCard == null) {
            return null;
        }
        AgentCard.Builder b = publicCard.toBuilder().mergeFrom(extendedCard);
        b.getCapabilitiesBuilder().setExtendedAgentCard(true);
        return b.build();
    }

    /**
     * Reads an extended card file (A2A_EXTENDED_CARD): ProtoJSON of the fields that differ from the
     * public card, for instance {@code {"skills":[...]}}.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static AgentCard readExtendedCard(Path file) {
        try {
            JsonNode tree = WireJson.mapper().readTree(Files.readAllBytes(file));
            if (tree == null || !tree.isObject()) {
                throw new IllegalArgumentException("A2A_EXTENDED_CARD " + file + " must hold a JSON object (AgentCard fields)");
            }
            return ProtoJson.read(tree, "A2A_EXTENDED_CARD", AgentCard.newBuilder()).build();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read A2A_EXTENDED_CARD " + file + ": " + e.getMessage());
        } catch (A2aException e) {
            throw new IllegalArgumentException("A2A_EXTENDED_CARD " + file + " is not an AgentCard: " + e.getMessage());
        }
    }
}
