package legate.cli.service;

import java.util.ArrayList;
import java.util.List;

/**
 * How an MCP client connects to the installed {@code legate mcp}: the URL, the pinned token, a
 * {@code .mcp.json} block and Claude Code's {@code claude mcp add} line, with the LAN address too
 * when the endpoint is bound wider than loopback.
 */
record McpConnection(String name, String url, String lanUrl, String token) {

    static McpConnection of(ServiceEnvironment env) {
        ServiceAddress at = ServiceAddress.of(ServiceKind.MCP, env);
        String lan = at.lanBase().map(b -> b + "/mcp").orElse(null);
        return new McpConnection(env.get("AGENT_NAME").orElse("legate-mcp"), at.localBase() + "/mcp", lan,
                env.get("MCP_TOKEN").orElse(null));
    }

    List<String> lines() {
        List<String> l = new ArrayList<>();
        l.add("MCP endpoint: " + url);
        if (lanUrl != null) {
            l.add("On your network: " + lanUrl);
        }
        if (token == null) {
            l.add("No token is pinned: install the mcp service again (legate service install mcp).");
            return l;
        }
        l.add("Token: " + token);
        l.add("");
        l.add(".mcp.json:");
        l.add("{");
        l.add("  \"mcpServers\": {");
        l.add("    " + json(name) + ": {");
        l.add("      \"type\": \"http\",");
        l.add("      \"url\": " + json(lanUrl != null ? lanUrl : url) + ",");
        l.add("      \"headers\": {\"Authorization\": " + json("Bearer " + token) + "}");
        l.add("    }");
        l.add("  }");
        l.add("}");
        l.add("");
        l.add("Claude Code:");
        l.add("  claude mcp add --transport http " + shellWord(name) + " " + shellWord(url)
                + " --header " + shellWord("Authorization: Bearer " + token));
        if (lanUrl != null) {
            l.add("  (from another machine: the same with " + lanUrl + ")");
        }
        return l;
    }

    private static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** A POSIX shell word: bare when it is plain, single-quoted otherwise. */
    private static String shellWord(String s) {
        if (s.matches("[A-Za-z0-9_./:@%+=,-]+")) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
