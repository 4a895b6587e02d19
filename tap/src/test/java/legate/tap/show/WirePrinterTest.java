package legate.tap.show;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import org.junit.jupiter.api.Test;

/** What a person reading the tap's console sees. */
class WirePrinterTest {
    private static final Instant AT = Instant.parse("2026-03-01T10:00:00Z");

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final WirePrinter printer = new WirePrinter(new PrintStream(console, true, StandardCharsets.UTF_8), false);

    // Rule: every printed line names its exchange, and a JSON body is laid out with the sender's
    // tokens untouched (1.10 stays 1.10, escapes stay escapes); a missing A2A-Version is pointed out.
    @Test
    void aJsonRequestIsLaidOutLineByLineUnderItsExchangeNumber() {
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":3,\"params\":{\"n\":1.10,\"s\":\"a\\\"b\\u00e9\",\"e\":[],\"o\":{}}}"
                .getBytes(StandardCharsets.UTF_8);
        printer.on(new Request(3, AT, "POST", "/", "HTTP/1.1",
                List.of(new Header("Content-Type", "application/json")), body));

        String out = console.toString(StandardCharsets.UTF_8);
        assertThat(out.lines()).allMatch(l -> l.startsWith("[#3] "));
        assertThat(out).contains("[#3] -> POST / HTTP/1.1", "A2A-Version: (absent", "Content-Type: application/json",
                "\"n\": 1.10,", "\"s\": \"a\\\"b\\u00e9\",", "\"e\": [],", "\"o\": {}");
    }

    // Rule: problems are flagged on the console as on the page: the protocol check's line follows the
    // request it found wanting, and a credential shows only its scheme and last 4 characters.
    @Test
    void aFlaggedProblemAndAMaskedCredentialAreShown() {
        ProtocolCheck check = new ProtocolCheck(List.of(printer));
        List<Header> shown = new ArrayList<>();
        ShownHeaders.A2A.collect("Authorization", "Bearer tok-0123456789-abcdWXYZ", shown);
        ShownHeaders.A2A.collect("User-Agent", "curl/8", shown);
        check.on(new Request(4, AT, "POST", "/", "HTTP/1.1", shown,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\"}".getBytes(StandardCharsets.UTF_8)));

        String out = console.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("[#4] !! problem: the request has no A2A-Version", "(GetTask was sent without it)",
                "Authorization: Bearer …WXYZ").doesNotContain("0123456789").doesNotContain("User-Agent");
    }

    // Rule: broken traffic stays visible. A body that is not exactly one JSON value (here a
    // duplicate key and trailing bytes) is printed as sent, and control characters cannot drive the terminal.
    @Test
    void aBrokenBodyIsShownAsSentWithControlCharactersVisible() {
        byte[] body = "{\"id\":1,\"id\":2} trailing\u001b[2J".getBytes(StandardCharsets.UTF_8);
        printer.on(new Response(9, AT, 200, List.of(new Header("Content-Type", "application/json")), body,
                body.length, Outcome.COMPLETE, Duration.ofMillis(4)));

        String out = console.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("[#9] <- 200 application/json", "[#9]    {\"id\":1,\"id\":2} trailing\\x1b[2J")
                .doesNotContain("\u001b");
    }

    // Rule: concurrent exchanges are not interleaved mid-block; each event's lines come out
    // together, under its own exchange number.
    @Test
    void concurrentExchangesPrintWholeBlocks() throws Exception {
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}}"
                .getBytes(StandardCharsets.UTF_8);
        int threads = 4;
        int eventsEach = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        for (int t = 1; t <= threads; t++) {
            long exchange = t;
            pool.execute(() -> {
                for (int i = 0; i < eventsEach; i++) {
                    printer.on(new Request(exchange, AT, "POST", "/", "HTTP/1.1", List.of(), body));
                }
            });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        List<String> lines = console.toString(StandardCharsets.UTF_8).lines().toList();
        int blockLines = 18;
        assertThat(lines).hasSize(threads * eventsEach * blockLines);
        for (int i = 0; i < lines.size(); i += blockLines) {
            String prefix = lines.get(i).substring(0, lines.get(i).indexOf(' ') + 1);
            assertThat(lines.get(i)).as("line %d starts a block", i).startsWith(prefix + "-> POST /");
            assertThat(lines.subList(i, i + blockLines)).as("block at line %d", i).allMatch(l -> l.startsWith(prefix));
        }
    }
}
