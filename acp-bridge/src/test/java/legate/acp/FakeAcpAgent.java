package legate.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scripted ACP agent of the project's own, run as a child process with the test JVM's java and
 * classpath. Process-level behaviour comes from arguments; each prompt's first word picks a
 * scenario (see {@link #turn}). It writes UTF-8 explicitly, whatever its platform charset.
 *
 * <p>Arguments: {@code --garbage-first} (non-JSON lines before anything), {@code --auth-at-new}
 * (session/new answers -32000), {@code --ignore-term} (a shutdown hook that never returns, so only
 * SIGKILL ends it), {@code --stay-on-eof} (stdin EOF does not end it), {@code --grandchild} (starts
 * {@code sleep 600}), {@code --journal FILE} (appends every method it receives), {@code --load} (advertises
 * loadSession: each session's prompts are kept in a file in its cwd, and session/load reads them back,
 * replaying them as updates, so a new process remembers), {@code --resume} (the same through
 * session/resume, without the replay).
 */
public final class FakeAcpAgent {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
            StandardCharsets.UTF_8);

    private final List<String> args;
    private final AtomicLong ids = new AtomicLong(1000);
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<String, List<String>> sessions = new ConcurrentHashMap<>();
    private final Map<String, String> modes = new ConcurrentHashMap<>();
    private final Map<String, Path> cwds = new ConcurrentHashMap<>();
    private volatile CountDownLatch cancel = new CountDownLatch(1);
    private Process grandchild;

    private FakeAcpAgent(List<String> args) {
        this.args = args;
    }

    public static void main(String[] argv) throws Exception {
        new FakeAcpAgent(List.of(argv)).run();
    }

    private void run() throws Exception {
        journal("pid " + ProcessHandle.current().pid());
        if (args.contains("--ignore-term")) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException ignored) {
                    // never
                }
            }));
        }
        if (args.contains("--grandchild")) {
            grandchild = new ProcessBuilder("sleep", "600").start();
        }
        if (args.contains("--garbage-first")) {
            raw("this line is not JSON");
            raw("{\"broken\": ");
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            JsonNode msg = JSON.readTree(line);
            String method = msg.path("method").asText(null);
            if (method == null) {
                CompletableFuture<JsonNode> f = pending.remove(msg.path("id").asLong());
                if (f != null) {
                    f.complete(msg);
                }
                continue;
            }
            journal(method + " " + msg.path("params"));
            if (msg.has("id")) {
                JsonNode id = msg.get("id");
                Thread.ofVirtual().start(() -> answer(id, method, msg.path("params")));
            } else if (method.equals("session/cancel")) {
                cancel.countDown();
            }
        }
        while (args.contains("--stay-on-eof")) {
            new CountDownLatch(1).await();
        }
        System.exit(0);
    }

    private void answer(JsonNode id, String method, JsonNode params) {
        try {
            switch (method) {
                case "initialize" -> result(id, JSON.readTree("{\"protocolVersion\":1,\"agentCapabilities\":{"
                        + "\"loadSession\":" + args.contains("--load")
                        + (args.contains("--resume") ? ",\"sessionCapabilities\":{\"resume\":{}}" : "") + "},"
                        + "\"authMethods\":[],\"agentInfo\":{\"name\":\"fake-acp-agent\",\"title\":\"Fake Agent\",\"version\":\"9.9.9\"}}"));
                case "session/new" -> newSession(id, params);
                case "session/set_mode" -> {
                    String mode = params.path("modeId").asText();
                    if (!List.of("default", "ask", "yolo").contains(mode)) {
                        error(id, -32602, "Invalid mode: " + mode);
                    } else {
                        modes.put(params.path("sessionId").asText(), mode);
                        result(id, JSON.createObjectNode());
                    }
                }
                case "session/load", "session/resume" -> restore(id, method, params);
                case "session/prompt" -> turn(id, params.path("sessionId").asText(), params.path("prompt").path(0).path("text").asText());
                default -> error(id, -32601, "Method not found: " + method);
            }
        } catch (Exception e) {
            error(id, -32603, e.toString());
        }
    }

    private void newSession(JsonNode id, JsonNode params) throws IOException {
        Path cwd = Path.of(params.path("cwd").asText("relative"));
        if (!params.path("mcpServers").isArray() || !cwd.isAbsolute() || !Files.isDirectory(cwd)) {
            error(id, -32602, "Invalid params: mcpServers and an absolute existing cwd are required");
            return;
        }
        if (args.contains("--auth-at-new")) {
            error(id, -32000, "Authentication required");
            return;
        }
        String sessionId = "sess-" + ProcessHandle.current().pid() + "-" + sessions.size();
        sessions.put(sessionId, new ArrayList<>());
        cwds.put(sessionId, cwd);
        modes.put(sessionId, "ask");
        result(id, JSON.readTree("{\"sessionId\":\"" + sessionId + "\",\"modes\":{\"currentModeId\":\"ask\","
                + "\"availableModes\":[{\"id\":\"default\",\"name\":\"Default\"},{\"id\":\"ask\",\"name\":\"Ask\"},"
                + "{\"id\":\"yolo\",\"name\":\"Yolo\"}]}}"));
        update(sessionId, "{\"sessionUpdate\":\"available_commands_update\",\"availableCommands\":[]}");
    }

    /** session/load or session/resume: the session's prompts read back from its file in cwd. */
    private void restore(JsonNode id, String method, JsonNode params) throws IOException {
        String sessionId = params.path("sessionId").asText();
        boolean offered = method.equals("session/load") ? args.contains("--load") : args.contains("--resume");
        Path file = Path.of(params.path("cwd").asText()).resolve(".fake-session-" + sessionId);
        if (!offered || !params.path("mcpServers").isArray()) {
            error(id, -32601, "Method not found: " + method);
            return;
        }
        if (!Files.exists(file)) {
            error(id, -32002, "Resource not found: session " + sessionId);
            return;
        }
        List<String> history = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        sessions.put(sessionId, history);
        modes.put(sessionId, "ask");
        cwds.put(sessionId, Path.of(params.path("cwd").asText()));
        if (method.equals("session/load")) {
            // PROTOCOL (ACP session/load): the agent replays the conversation as updates before it answers.
            for (String prompt : history) {
                ObjectNode u = JSON.createObjectNode().put("sessionUpdate", "user_message_chunk");
                u.putObject("content").put("type", "text").put("text", prompt);
                update(sessionId, u.toString());
                say(sessionId, "REPLAYED " + prompt);
            }
        }
        result(id, JSON.createObjectNode());
    }

    /** One prompt turn; the first word of the prompt names the scenario. */
    private void turn(JsonNode id, String session, String prompt) throws Exception {
        List<String> history = sessions.get(session);
        String[] w = prompt.split(" ", 2);
        String rest = w.length > 1 ? w[1] : "";
        cancel = new CountDownLatch(1);
        String stop = "end_turn";
        switch (w[0]) {
            case "echo" -> rest.codePoints().forEach(cp -> say(session, new String(Character.toChars(cp))));
            case "tokens" -> {
                for (int i = 0; i < Integer.parseInt(rest); i++) {
                    say(session, "a");
                }
            }
            case "lines" -> {
                say(session, "Answer:");
                say(session, " first line\nsecond");
            }
            case "tools" -> {
                update(session, "{\"sessionUpdate\":\"agent_thought_chunk\",\"content\":{\"type\":\"text\",\"text\":\"pondering\"}}");
                update(session, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"Read notes.txt\","
                        + "\"kind\":\"read\",\"status\":\"pending\",\"locations\":[{\"path\":\"/tmp/notes.txt\"}]}");
                update(session, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\"}");
                update(session, "{\"sessionUpdate\":\"plan\",\"entries\":[{\"content\":\"Read the notes\",\"priority\":\"high\","
                        + "\"status\":\"completed\"},{\"content\":\"Answer\",\"priority\":\"medium\",\"status\":\"pending\"}]}");
                update(session, "{\"sessionUpdate\":\"a_kind_from_the_future\",\"whatever\":[1,2,3]}");
                update(session, "{\"sessionUpdate\":\"usage_update\",\"used\":1200,\"size\":200000,\"cost\":{\"amount\":0.01,\"currency\":\"USD\"}}");
                say(session, "done");
            }
            case "stop" -> {
                say(session, "stopping");
                stop = rest;
            }
            case "auth" -> {
                error(id, -32000, "Authentication required");
                return;
            }
            case "crash" -> {
                say(session, "about to crash");
                OUT.flush();
                Runtime.getRuntime().halt(3);
            }
            case "garbage" -> {
                raw("garbage: not JSON");
                raw("[1, 2");
                raw("{\"jsonrpc\":\"2.0\"}");
                say(session, "still here");
            }
            case "wait", "wait-ignore" -> {
                say(session, "waiting for a cancel\n");
                cancel.await();
                say(session, "cancel seen");
                stop = w[0].equals("wait") ? "cancelled" : "end_turn";
            }
            case "permission" -> {
                String[] kp = rest.split(" ", 2);
                say(session, "permission: " + permission(session, "p1", kp[0], kp[1]));
            }
            case "permissions" -> {
                // Two requests in one turn, the second sent only once the first is answered, as agents do.
                String first = permission(session, "p1", "edit", "/etc/one");
                say(session, "update between the two questions\n");
                String second = permission(session, "p2", "edit", "/etc/two");
                say(session, "permissions: " + first + " / " + second);
            }
            case "command" -> {
                JsonNode answer = request("session/request_permission", "{\"sessionId\":\"" + session + "\",\"toolCall\":{"
                        + "\"toolCallId\":\"c1\",\"title\":\"Run " + rest + "\",\"kind\":\"execute\","
                        + "\"rawInput\":{\"command\":" + JSON.writeValueAsString(rest) + "}},\"options\":["
                        + "{\"optionId\":\"approved\",\"name\":\"Yes\",\"kind\":\"allow_once\"},"
                        + "{\"optionId\":\"abort\",\"name\":\"No, and stop\",\"kind\":\"reject_once\"},"
                        + "{\"optionId\":\"denied\",\"name\":\"No\",\"kind\":\"reject_once\"}]}");
                JsonNode outcome = answer.path("result").path("outcome");
                say(session, "command: " + outcome.path("outcome").asText() + " " + outcome.path("optionId").asText(""));
            }
            case "edit" -> {
                // An edit reported as a diff, and a command that failed: codex reports both inside end_turn.
                update(session, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"e1\",\"title\":\"Edit a.txt\","
                        + "\"kind\":\"edit\",\"status\":\"in_progress\",\"locations\":[{\"path\":\"a.txt\"}],"
                        + "\"content\":[{\"type\":\"diff\",\"path\":\"a.txt\",\"oldText\":\"one\\ntwo\\nthree\\n\","
                        + "\"newText\":\"one\\nTWO\\nthree\\n\"}]}");
                update(session, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"e1\",\"status\":\"completed\"}");
                update(session, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"n1\",\"title\":\"Create b.txt\","
                        + "\"kind\":\"edit\",\"status\":\"completed\",\"content\":[{\"type\":\"diff\",\"path\":\"b.txt\","
                        + "\"newText\":\"new file\\n\"}]}");
                update(session, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"x1\",\"title\":\"Run make\","
                        + "\"kind\":\"execute\",\"status\":\"in_progress\"}");
                update(session, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"x1\",\"status\":\"failed\"}");
                update(session, "{\"sessionUpdate\":\"current_mode_update\",\"currentModeId\":\"ask\"}");
                say(session, "edited");
            }
            case "write" -> {
                String[] pc = rest.split(" ", 2);
                JsonNode wrote = request("fs/write_text_file", JSON.writeValueAsString(Map.of("sessionId", session,
                        "path", pc[0], "content", pc[1])));
                if (wrote.has("error")) {
                    say(session, "write error " + wrote.path("error").path("code").asInt() + ": "
                            + wrote.path("error").path("message").asText());
                } else {
                    JsonNode read = request("fs/read_text_file", JSON.writeValueAsString(Map.of("sessionId", session,
                            "path", pc[0], "line", 1, "limit", 1)));
                    say(session, "read back: " + read.path("result").path("content").asText());
                }
            }
            case "stderr" -> {
                System.err.println("fake agent complains: " + rest);
                System.err.flush();
                say(session, "complained");
            }
            case "recall" -> say(session, "earlier: " + String.join(" | ", history));
            case "pids" -> say(session, ProcessHandle.current().pid() + " " + (grandchild == null ? -1 : grandchild.pid()));
            case "mode" -> say(session, "mode " + modes.get(session));
            default -> say(session, "You said: " + prompt);
        }
        history.add(prompt);
        if (args.contains("--load") || args.contains("--resume")) {
            Path cwd = cwds.getOrDefault(session, Path.of(System.getProperty("user.dir")));
            Files.write(cwd.resolve(".fake-session-" + session), history, StandardCharsets.UTF_8);
        }
        result(id, JSON.readTree("{\"stopReason\":\"" + stop + "\",\"usage\":{\"inputTokens\":10,\"outputTokens\":5,"
                + "\"totalTokens\":15}}"));
    }

    /** One permission request for {@code path}; returns "outcome optionId" as answered. */
    private String permission(String session, String callId, String kind, String path) throws Exception {
        JsonNode answer = request("session/request_permission", "{\"sessionId\":\"" + session + "\",\"toolCall\":{"
                + "\"toolCallId\":\"" + callId + "\",\"title\":\"Change " + path + "\",\"kind\":\"" + kind + "\","
                + "\"locations\":[{\"path\":" + JSON.writeValueAsString(path) + "}]},\"options\":["
                + "{\"optionId\":\"yes\",\"name\":\"Allow\",\"kind\":\"allow_once\"},"
                + "{\"optionId\":\"no\",\"name\":\"Reject\",\"kind\":\"reject_once\"}]}");
        JsonNode outcome = answer.path("result").path("outcome");
        return (outcome.path("outcome").asText() + " " + outcome.path("optionId").asText("")).strip();
    }

    private JsonNode request(String method, String params) throws Exception {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        ObjectNode msg = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        msg.set("params", JSON.readTree(params));
        send(msg);
        return f.get();
    }

    private void say(String session, String text) {
        ObjectNode u = JSON.createObjectNode().put("sessionUpdate", "agent_message_chunk");
        u.putObject("content").put("type", "text").put("text", text);
        update(session, u.toString());
    }

    private void update(String session, String updateJson) {
        try {
            ObjectNode msg = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "session/update");
            msg.putObject("params").put("sessionId", session).set("update", JSON.readTree(updateJson));
            send(msg);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void result(JsonNode id, JsonNode result) {
        ObjectNode msg = JSON.createObjectNode().put("jsonrpc", "2.0");
        msg.set("id", id);
        msg.set("result", result);
        send(msg);
    }

    private void error(JsonNode id, int code, String message) {
        ObjectNode msg = JSON.createObjectNode().put("jsonrpc", "2.0");
        msg.set("id", id);
        msg.putObject("error").put("code", code).put("message", message);
        send(msg);
    }

    private static void raw(String line) {
        synchronized (OUT) {
            OUT.print(line + "\n");
            OUT.flush();
        }
    }

    private static void send(ObjectNode msg) {
        raw(msg.toString());
    }

    private void journal(String entry) throws IOException {
        int at = args.indexOf("--journal");
        if (at >= 0) {
            Files.writeString(Path.of(args.get(at + 1)), entry + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }
}
