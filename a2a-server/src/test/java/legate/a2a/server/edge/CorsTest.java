package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerEdge;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CORS_ORIGINS as a browser meets it (README "CORS"): exact origins only, preflights answered here. */
class CorsTest {
    private static final String APP = "https://app.example";
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static URI withCors;
    private static URI withoutCors;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        AgentServer on = EdgeFixture.server(ServerEdge.PLAIN.withCors(new CorsPolicy(Set.of(APP), "X-Team-Key")), "http");
        withCors = URI.create("http://127.0.0.1:" + cleanup.start("cors", on, AgentServer::start, AgentServer::openStreams) + "/");
        AgentServer off = EdgeFixture.server(ServerEdge.PLAIN, "http");
        withoutCors = URI.create("http://127.0.0.1:" + cleanup.start("plain", off, AgentServer::start, AgentServer::openStreams) + "/");
    }

    private static HttpResponse<String> preflight(URI uri, String origin) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", origin).header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type,a2a-version,authorization").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(URI uri, String origin) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                .header("A2A-Version", "1.0").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{}}"));
        if (origin != null) {
            b.header("Origin", origin);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anAllowedOriginsPreflightNamesTheMethodsAndA2aHeaders() throws Exception {
        HttpResponse<String> r = preflight(withCors, APP);

        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
        assertThat(r.headers().firstValue("Access-Control-Allow-Methods")).hasValueSatisfying(v -> assertThat(v).contains("POST"));
        assertThat(r.headers().firstValue("Access-Control-Allow-Headers")).hasValue(
                "Content-Type, A2A-Version, A2A-Extensions, X-A2A-Extensions, Authorization, X-Team-Key, Last-Event-ID");
        assertThat(r.headers().firstValue("Access-Control-Allow-Credentials")).isEmpty();
        assertThat(r.headers().allValues("Vary")).anySatisfy(v -> assertThat(v).contains("Origin"));
    }

    // DEFECT: v0.3's X-A2A-Extensions was not allowed, so the browser dropped a v0.3 page's request.
    // PROTOCOL (Fetch §4.8): every header a preflight asks for must be in the allowed list, or the
    // browser sends nothing: A2A's extension header under both names, and Last-Event-ID for a resume.
    @Test
    void aPreflightAllowsEveryHeaderAnA2aBrowserClientSends() throws Exception {
        String asked = "content-type,a2a-version,a2a-extensions,x-a2a-extensions,last-event-id,authorization,x-team-key";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(withCors).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", APP).header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", asked).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(204);
        Set<String> allowed = Set.of(r.headers().firstValue("Access-Control-Allow-Headers").orElse("").toLowerCase()
                .split("\\s*,\\s*"));
        assertThat(allowed).containsAll(Set.of(asked.split(",")));
    }

    @Test
    void anAllowedOriginsCallIsAnsweredWithItsOriginEchoedAndHeadersExposed() throws Exception {
        HttpResponse<String> r = post(withCors, APP);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"result\"");
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
        assertThat(r.headers().firstValue("Access-Control-Expose-Headers")).hasValueSatisfying(
                v -> assertThat(v).contains("A2A-Extensions").contains("WWW-Authenticate"));
    }

    /** Exact match: another scheme, port or a look-alike host is another origin, refused before anything runs. */
    @Test
    void foreignOriginsAreRefusedPreflightOrNot() throws Exception {
        for (String foreign : new String[] {"http://app.example", "https://app.example:8443", "https://app.example.evil"}) {
            HttpResponse<String> pre = preflight(withCors, foreign);
            HttpResponse<String> call = post(withCors, foreign);

            assertThat(pre.statusCode()).as(foreign).isEqualTo(403);
            assertThat(pre.headers().firstValue("Access-Control-Allow-Origin")).as(foreign).isEmpty();
            assertThat(call.statusCode()).as(foreign).isEqualTo(403);
            assertThat(call.body()).as(foreign).doesNotContain("\"result\"");
        }
    }

    @Test
    void callsWithoutOriginPassUntouched() throws Exception {
        HttpResponse<String> r = post(withCors, null);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void withoutCorsOriginsNoBrowserIsAllowedAcross() throws Exception {
        HttpResponse<String> pre = preflight(withoutCors, APP);
        HttpResponse<String> call = post(withoutCors, APP);

        assertThat(pre.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        assertThat(call.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void aWildcardOrAPathIsNotAnOrigin() {
        assertThatThrownBy(() -> CorsPolicy.parse("*", null)).hasMessageContaining("no wildcard");
        assertThatThrownBy(() -> CorsPolicy.parse("https://app.example/path", null)).hasMessageContaining("no path");
        assertThat(CorsPolicy.parse(" https://a.example/ , http://b.example:8080", null).origins())
                .containsExactlyInAnyOrder("https://a.example", "http://b.example:8080");
        assertThat(CorsPolicy.parse(" ", null)).isNull();
    }
}
