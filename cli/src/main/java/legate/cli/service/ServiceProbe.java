package legate.cli.service;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Live checks of an installed service, beside what its manager says: a manager can call a service
 * active while it is still starting, or while it fails every request. An agent or bridge must serve
 * its card; the MCP endpoint must refuse a request without the token (401) and accept one with it
 * (200), which proves both that it runs and that the pinned token is the one in force.
 */
final class ServiceProbe {
    static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"legate-service-status\","
            + "\"version\":\"1\"}}}";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    /** One line per check, each starting with "ok" or "FAIL". */
    List<String> check(ServiceKind kind, ServiceEnvironment env) throws InterruptedException {
        ServiceAddress at = ServiceAddress.of(kind, env);
        List<String> out = new ArrayList<>();
        if (kind == ServiceKind.MCP) {
            String url = at.localBase() + "/mcp";
            int without = post(url, null);
            out.add(line(without == 401, url + " without the token: " + described(without) + " (expected 401)"));
            String token = env.get("MCP_TOKEN").orElse(null);
            if (token == null) {
                out.add("FAIL no MCP_TOKEN in " + "the service's .env: install it again to pin one");
            } else {
                int with = post(url, token);
                out.add(line(with == 200, url + " with the token: " + described(with) + " (expected 200)"));
            }
        } else {
            String url = at.localBase() + "/.well-known/agent-card.json";
            int status = get(url);
            out.add(line(status == 200, url + ": " + described(status) + " (expected 200)"));
        }
        return out;
    }

    private static String line(boolean ok, String text) {
        return (ok ? "ok   " : "FAIL ") + text;
    }

    private static String described(int status) {
        return status < 0 ? "no answer" : "HTTP " + status;
    }

    private int get(String url) throws InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET().build());
    }

    private int post(String url, String token) throws InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build());
    }

    private int send(HttpRequest request) throws InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException | IllegalArgumentException e) {
            return -1;
        }
    }
}
