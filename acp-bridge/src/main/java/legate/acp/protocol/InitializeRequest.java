package legate.acp.protocol;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The {@code initialize} request as the bridge sends it: protocol version 1 and the client
 * capabilities the bridge really serves.
 */
public record InitializeRequest(Implementation clientInfo) {

    public ObjectNode toJson() {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("protocolVersion", AcpMethods.PROTOCOL_VERSION);
        ObjectNode caps = params.putObject("clientCapabilities");
        // PROTOCOL (ACP): the agent may call fs/* only when the client advertises them. The bridge serves
        // both inside the session root; it runs no terminals, so terminal/* is never offered.
        ObjectNode fs = caps.putObject("fs");
        fs.put("readTextFile", true);
        fs.put("writeTextFile", true);
        caps.put("terminal", false);
        params.set("clientInfo", clientInfo.toJson());
        return params;
    }
}
