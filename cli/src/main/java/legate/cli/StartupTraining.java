package legate.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.wire.jsonrpc.JsonRpcCodec;

/**
 * The scripted session {@code legate agent --start-cache-training} serves to itself: the Agent
 * Card, blocking and streaming SendMessage, and GetTask, as a client would send them. bin/legate
 * runs it once per jar and JDK with the JVM recording (the AOT cache on JDK 25, a dynamic CDS
 * archive before), so that later starts find the classes of a real request already loaded, linked
 * and, on JDK 25, profiled.
 *
 * <p>The client is a plain socket, not the JDK's HttpClient, because every class the training
 * loads lands in the archive, and the server never uses HttpClient.
 */
final class StartupTraining {
    /** Enough requests for the JIT's profiles to see the steady state, a few seconds in all. */
    private static final int ROUNDS = 200;
    private static final int READ_TIMEOUT_MS = 10_000;
    private static final Pattern TASK_ID = Pattern.compile("\"task\":\\{\"id\":\"([^\"]+)\"");

    private final int port;
    private final String rpcPath;

    StartupTraining(int port, String rpcPath) {
        this.port = port;
        this.rpcPath = rpcPath;
    }

    /** Throws when an answer is not what Revisor gives, so a broken build never leaves an archive. */
    void run() throws IOException {
        for (int i = 0; i < ROUNDS; i++) {
            expect(get("/.well-known/agent-card.json"), "\"supportedInterfaces\"");
            String sent = expect(post(message("SendMessage", i)), "TASK_STATE_COMPLETED");
            Matcher id = TASK_ID.matcher(sent);
            if (!id.find()) {
                throw new IOException("no task id in " + sent);
            }
            expect(post(JsonRpcCodec.requestJson(i, "GetTask", "{\"id\":\"" + id.group(1) + "\"}")), "TASK_STATE_COMPLETED");
            if (i % 4 == 0) {
                expect(post(message("SendStreamingMessage", i)), "TASK_STATE_COMPLETED");
            }
        }
    }

    private static String message(String method, int i) {
        return JsonRpcCodec.requestJson(i, method, "{\"message\":{\"messageId\":\"training-" + method + "-" + i
                + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"The quick brown fox. It jumps!\"}]}}");
    }

    private static String expect(String response, String needle) throws IOException {
        if (!response.startsWith("HTTP/1.1 200") || !response.contains(needle)) {
            throw new IOException("unexpected answer: " + response);
        }
        return response;
    }

    private String get(String path) throws IOException {
        return exchange("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n");
    }

    private String post(String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return exchange("POST " + rpcPath + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + "A2A-Version: 1.0\r\nContent-Length: " + body.length + "\r\n\r\n" + json);
    }

    /** One request on its own connection, read until the server closes it. */
    private String exchange(String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MS);
            s.setSoTimeout(READ_TIMEOUT_MS);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }
}
