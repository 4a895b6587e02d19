package legate.acp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's answer to {@code initialize}: the protocol version it speaks, who it is, and how it can
 * be logged in. The Agent Card of the bridge is built from it.
 *
 * @param agentInfo null when the agent did not say
 * @param loadSession the agent can load an earlier session ({@code agentCapabilities.loadSession})
 * @param resumeSession the agent can resume one ({@code agentCapabilities.sessionCapabilities.resume})
 */
public record InitializeResponse(int protocolVersion, Implementation agentInfo, List<AuthMethod> authMethods,
                                 boolean loadSession, boolean resumeSession) {

    public InitializeResponse {
        authMethods = List.copyOf(authMethods);
    }

    /** An answer that advertises neither session/load nor session/resume. */
    public InitializeResponse(int protocolVersion, Implementation agentInfo, List<AuthMethod> authMethods) {
        this(protocolVersion, agentInfo, authMethods, false, false);
    }

    public static InitializeResponse fromJson(JsonNode result) {
        if (result == null || !result.isObject()) {
            throw new IllegalArgumentException("the initialize answer is not an object: " + result);
        }
        JsonNode version = result.get("protocolVersion");
        if (version == null || !version.canConvertToInt()) {
            // PROTOCOL (ACP): protocolVersion is required in the answer, an integer.
            throw new IllegalArgumentException("the initialize answer has no integer protocolVersion");
        }
        List<AuthMethod> auth = new ArrayList<>();
        for (JsonNode m : result.path("authMethods")) {
            auth.add(AuthMethod.fromJson(m));
        }
        JsonNode caps = result.path("agentCapabilities");
        // PROTOCOL (ACP initialize): loadSession is a boolean; sessionCapabilities.resume is an object when supported.
        JsonNode resume = caps.path("sessionCapabilities").path("resume");
        return new InitializeResponse(version.intValue(), Implementation.fromJson(result.get("agentInfo")), auth,
                caps.path("loadSession").asBoolean(false), resume.isObject());
    }
}
