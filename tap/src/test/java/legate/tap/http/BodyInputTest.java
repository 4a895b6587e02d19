package legate.tap.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import legate.tap.http.MalformedMessage.Fault;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A body freed of its framing, byte by byte, with no socket: one case per rule of RFC 9112 §6-7 the
 * reader enforces. Broken framing is a {@link MalformedMessage} naming the sender; a connection that
 * ends too early is a plain {@link IOException}, because nothing about the message was wrong.
 */
class BodyInputTest {
    private static final int MAX_BYTES = 64 * 1024;

    // Rule (RFC 9112 §6.3): a Content-Length body is exactly that many bytes; what follows is the
    // connection's next message and stays in the input.
    @Test
    void aLengthBodyEndsAtItsLength() throws IOException {
        WireInput in = ArrivingBytes.whole("{\"a\":1}GET /next").from(Sender.CLIENT, MAX_BYTES);
        BodyInput body = new BodyInput(in, new Framing.Length(7));

        assertThat(text(body)).isEqualTo("{\"a\":1}");
        assertThat(ArrivingBytes.restOf(in)).isEqualTo("GET /next");
    }

    // Rule: a connection that ends before its body does broke off; it is not a framing fault, and
    // the reader says so with a plain IOException.
    @Test
    void aConnectionEndingInsideABodyIsABreakNotAFault() {
        IOException length = catchThrowableOfType(IOException.class,
                () -> text(new BodyInput(ArrivingBytes.whole("{\"a\"").from(Sender.SERVER, MAX_BYTES), new Framing.Length(7))));
        IOException chunked = catchThrowableOfType(IOException.class,
                () -> chunked(Sender.SERVER, "7\r\n{\"a\""));

        assertThat(length).isNotNull().isNotInstanceOf(MalformedMessage.class);
        assertThat(chunked).isNotNull().isNotInstanceOf(MalformedMessage.class);
    }

    // Rule (RFC 9112 §7.1): a chunked body is the chunks' data, joined; sizes are hex in either case,
    // and the bytes after the last chunk and its empty trailer section are the next message.
    @Test
    void aChunkedBodyIsItsChunksJoined() throws IOException {
        WireInput in = ArrivingBytes.whole("4\r\n{\"a\"\r\nA\r\n:123456789\r\nc\r\n,\"b\":\"wxyz\"}\r\n0\r\n\r\nGET /next")
                .from(Sender.CLIENT, MAX_BYTES);

        assertThat(text(new BodyInput(in, Framing.CHUNKED))).isEqualTo("{\"a\":123456789,\"b\":\"wxyz\"}");
        assertThat(ArrivingBytes.restOf(in)).isEqualTo("GET /next");
    }

    // Rule (RFC 9112 §7.1.1): chunk extensions, with whitespace before their semicolon, are read past
    // and never passed on.
    @Test
    void chunkExtensionsAreReadPast() throws IOException {
        assertThat(chunked(Sender.CLIENT, "2;name=value\r\n{}\r\n1 ;a;b=\"x;y\"\r\n \r\n0;last\r\n\r\n")).isEqualTo("{} ");
    }

    // Rule (RFC 9112 §7.1.2): a trailer section is read to its end and dropped; the body ends after it.
    @Test
    void trailersAreReadAndDropped() throws IOException {
        WireInput in = ArrivingBytes.whole("2\r\n{}\r\n0\r\nX-Checksum: 1\r\nX-More: 2\r\n\r\nnext")
                .from(Sender.CLIENT, MAX_BYTES);

        assertThat(text(new BodyInput(in, Framing.CHUNKED))).isEqualTo("{}");
        assertThat(ArrivingBytes.restOf(in)).isEqualTo("next");
    }

    // Rule (RFC 9112 §7.1): chunked framing two parsers could read two ways is refused, so no
    // second request hides in a body; the fault names who sent it.
    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenChunks")
    void brokenChunkedFramingIsRefused(String rule, String body) {
        for (Sender sender : Sender.values()) {
            MalformedMessage e = catchThrowableOfType(MalformedMessage.class, () -> chunked(sender, body));

            assertThat(e).as("refused from the %s", sender).isNotNull();
            assertThat(e.sender()).isEqualTo(sender);
            assertThat(e.fault()).as(e.getMessage()).isEqualTo(Fault.INVALID);
        }
    }

    static Stream<Arguments> brokenChunks() {
        return Stream.of(
                arguments("RFC 9112 §7.1: a chunk size that is not hex", "zz\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a chunk size with a 0x prefix", "0x2\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a negative chunk size", "-2\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a chunk-size line without a size", "\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: whitespace before a chunk size", " 2\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a chunk size that would overflow a count",
                        "10000000000000002\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a chunk longer than its size", "1\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a chunk shorter than its size", "3\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a bare LF ending a chunk-size line", "2\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a bare LF ending a chunk's data", "2\r\n{}\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1: a bare LF ending the last chunk's line", "2\r\n{}\r\n0\n\r\n"),
                arguments("RFC 9112 §7.1: a bare CR in a chunk-size line", "2\r\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1.1: a bare CR in a chunk extension", "2;a\rb\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1.1: a NUL in a chunk extension", "2;a\0b\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1.1: a chunk-size line longer than the reader's bound",
                        "2;" + "x".repeat(5000) + "\r\n{}\r\n0\r\n\r\n"),
                arguments("RFC 9112 §7.1.2: a bare CR in a trailer line", "2\r\n{}\r\n0\r\nX-A: 1\rX-B: 2\r\n\r\n"),
                arguments("RFC 9112 §7.1.2: a trailer section longer than the reader's bound",
                        "2\r\n{}\r\n0\r\n" + ("X-Pad: " + "p".repeat(1000) + "\r\n").repeat(17) + "\r\n"));
    }

    // Rule: chunks arrive as the network cuts them; a body arriving one byte per read is the same
    // body as one that came whole.
    @Test
    void aChunkedBodyArrivingByteByByteReadsTheSame() throws IOException {
        String framed = "4;x=y\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nX-T: 1\r\n\r\n";
        BodyInput body = new BodyInput(ArrivingBytes.inPieces(framed, 1).from(Sender.CLIENT, MAX_BYTES), Framing.CHUNKED);

        assertThat(text(body)).isEqualTo("{\"a\":1}");
    }

    // Rule (tap/README.md): a request body over the tap's limit is refused (413) before a byte of it
    // is read when its length is declared, so a client still sending is not read in vain.
    @Test
    void aDeclaredLengthOverTheBoundIsRefusedBeforeReading() {
        ArrivingBytes bytes = ArrivingBytes.thenSilence("");
        BodyInput body = new BodyInput(bytes.from(Sender.CLIENT, MAX_BYTES), new Framing.Length(11));

        MalformedMessage e = catchThrowableOfType(MalformedMessage.class, () -> body.readAll(10));

        assertThat(e).as("refused").isNotNull();
        assertThat(e.fault()).isEqualTo(Fault.BODY_TOO_LARGE);
        assertThat(e.sender()).isEqualTo(Sender.CLIENT);
        assertThat(bytes.sent()).isZero();
    }

    // Rule (tap/README.md): a chunked body declares no length, so the bound is enforced as chunks
    // arrive: a body of exactly the bound is read, one byte more is refused.
    @Test
    void aChunkedBodyOverTheBoundIsRefusedAsItPassesIt() throws IOException {
        String atBound = "5\r\n12345\r\n5\r\n67890\r\n0\r\n\r\n";
        String over = "5\r\n12345\r\n6\r\n678901\r\n0\r\n\r\n";

        byte[] read = new BodyInput(ArrivingBytes.whole(atBound).from(Sender.CLIENT, MAX_BYTES), Framing.CHUNKED).readAll(10);
        MalformedMessage e = catchThrowableOfType(MalformedMessage.class,
                () -> new BodyInput(ArrivingBytes.whole(over).from(Sender.CLIENT, MAX_BYTES), Framing.CHUNKED).readAll(10));

        assertThat(new String(read, StandardCharsets.US_ASCII)).isEqualTo("1234567890");
        assertThat(e).as("refused").isNotNull();
        assertThat(e.fault()).isEqualTo(Fault.BODY_TOO_LARGE);
    }

    // Rule: the relay sends a body's last bytes together with its end, so it asks whether the body
    // is complete from what has already arrived; asking never waits for the network.
    @Test
    void completeTellsFromWhatHasArrivedWithoutWaiting() throws IOException {
        BodyInput open = new BodyInput(ArrivingBytes.thenSilence("2\r\n{}\r\n").from(Sender.SERVER, MAX_BYTES), Framing.CHUNKED);
        BodyInput ended = new BodyInput(ArrivingBytes.thenSilence("2\r\n{}\r\n0\r\n\r\n").from(Sender.SERVER, MAX_BYTES),
                Framing.CHUNKED);
        byte[] buf = new byte[8];

        assertThat(open.read(buf, 0, buf.length)).isEqualTo(2);
        assertThat(open.complete()).as("a chunked body before its last chunk").isFalse();
        assertThat(ended.read(buf, 0, buf.length)).isEqualTo(2);
        assertThat(ended.complete()).as("a chunked body whose last chunk has arrived").isTrue();
    }

    // Rule (RFC 9112 §6.3): a response without a length ends when the server closes the connection,
    // and ending there is its normal end, not a break.
    @Test
    void aBodyDelimitedByCloseEndsWithTheConnection() throws IOException {
        String data = "data: 1\n\ndata: 2\n\n";

        assertThat(text(new BodyInput(ArrivingBytes.inPieces(data, 3).from(Sender.SERVER, MAX_BYTES), Framing.UNTIL_CLOSE)))
                .isEqualTo(data);
    }

    // Rule (RFC 9112 §6.3): a 204 or 304 has no body whatever its Content-Length says; the bytes
    // after its head are the connection's next response, read as such.
    @ParameterizedTest(name = "{0}")
    @MethodSource("bodilessStatuses")
    void aBodilessResponseLeavesTheNextResponseAlone(String status) throws IOException {
        WireInput in = ArrivingBytes.whole("HTTP/1.1 " + status + "\r\nContent-Length: 5\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}").from(Sender.SERVER, MAX_BYTES);
        HeadParser responses = new HeadParser(in);
        ResponseHead first = responses.response();

        assertThat(text(new BodyInput(in, Framing.ofResponse(first, false)))).isEmpty();
        ResponseHead next = responses.response();
        assertThat(next.status()).isEqualTo(200);
        assertThat(text(new BodyInput(in, Framing.ofResponse(next, false)))).isEqualTo("{}");
    }

    static Stream<String> bodilessStatuses() {
        return Stream.of("204 No Content", "304 Not Modified");
    }

    private static String chunked(Sender sender, String framed) throws IOException {
        return text(new BodyInput(ArrivingBytes.whole(framed).from(sender, MAX_BYTES), Framing.CHUNKED));
    }

    private static String text(BodyInput body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[5];
        int n;
        while ((n = body.read(buf, 0, buf.length)) >= 0) {
            out.write(buf, 0, n);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
