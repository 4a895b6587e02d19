package legate.tap.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.util.stream.Stream;
import legate.tap.http.MalformedMessage.Fault;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where a message's body ends (RFC 9112 §6), read from heads parsed from bytes: a request's framing
 * is refused whenever two parsers could disagree on it, which is how requests are smuggled; a
 * response's follows the RFC's precedence.
 */
class FramingTest {

    // Rule (RFC 9112 §6.1, §6.3; RFC 9110 §8.6): a request whose length two parsers could read two
    // ways is refused, the client's fault; a transfer coding the tap cannot decode is its own fault.
    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedRequests")
    void aRequestWhoseLengthIsAmbiguousIsRefused(String rule, String fields, Fault fault) {
        MalformedMessage e = catchThrowableOfType(MalformedMessage.class,
                () -> Framing.ofRequest(request("HTTP/1.1", fields)));

        assertThat(e).as("refused").isNotNull();
        assertThat(e.sender()).isEqualTo(Sender.CLIENT);
        assertThat(e.fault()).as(e.getMessage()).isEqualTo(fault);
    }

    static Stream<Arguments> refusedRequests() {
        return Stream.of(
                arguments("RFC 9112 §6.3: Transfer-Encoding with Content-Length",
                        "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", Fault.INVALID),
                arguments("RFC 9112 §6.3: Content-Length with Transfer-Encoding, the other order",
                        "Transfer-Encoding: chunked\r\nContent-Length: 0\r\n", Fault.INVALID),
                arguments("RFC 9112 §6.3: differing Content-Length values in one line",
                        "Content-Length: 2, 3\r\n", Fault.INVALID),
                arguments("RFC 9112 §6.3: differing Content-Length values in two lines",
                        "Content-Length: 2\r\nContent-Length: 3\r\n", Fault.INVALID),
                arguments("RFC 9112 §6.3: an empty element in a Content-Length list",
                        "Content-Length: 2,,2\r\n", Fault.INVALID),
                arguments("RFC 9110 §8.6: a Content-Length with a sign", "Content-Length: +2\r\n", Fault.INVALID),
                arguments("RFC 9110 §8.6: a negative Content-Length", "Content-Length: -1\r\n", Fault.INVALID),
                arguments("RFC 9110 §8.6: a Content-Length in hex", "Content-Length: 0x10\r\n", Fault.INVALID),
                arguments("RFC 9110 §8.6: an empty Content-Length", "Content-Length:\r\n", Fault.INVALID),
                arguments("RFC 9110 §8.6: a Content-Length too large to count",
                        "Content-Length: 9999999999999999999\r\n", Fault.INVALID),
                arguments("RFC 9112 §6.3: chunked not the final transfer coding",
                        "Transfer-Encoding: chunked, gzip\r\n", Fault.INVALID),
                arguments("RFC 9112 §6.3: a transfer coding without chunked", "Transfer-Encoding: gzip\r\n", Fault.INVALID),
                arguments("RFC 9112 §6.3: an empty Transfer-Encoding", "Transfer-Encoding: \r\n", Fault.INVALID),
                arguments("RFC 9112 §6.3: a chunked that is not the token chunked",
                        "Transfer-Encoding: xchunked\r\n", Fault.INVALID),
                arguments("RFC 9112 §6.1: a coding under chunked the tap does not decode",
                        "Transfer-Encoding: gzip, chunked\r\n", Fault.UNSUPPORTED_CODING),
                arguments("RFC 9112 §6.1: the same, over two lines",
                        "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", Fault.UNSUPPORTED_CODING));
    }

    // Rule (RFC 9112 §6.1): Transfer-Encoding in an HTTP/1.0 message means faulty framing, because
    // an HTTP/1.0 recipient would read the body by its Content-Length or to the connection's end.
    @Test
    void transferEncodingInAnHttp10RequestIsRefused() {
        MalformedMessage e = catchThrowableOfType(MalformedMessage.class,
                () -> Framing.ofRequest(request("HTTP/1.0", "Transfer-Encoding: chunked\r\n")));

        assertThat(e).as("refused").isNotNull();
        assertThat(e.fault()).isEqualTo(Fault.INVALID);
    }

    // Rule (RFC 9112 §6.3): equal Content-Length values count as one; chunked is read in any letter
    // case; a request with neither header has no body.
    @Test
    void aRequestWhoseLengthIsPlainIsRead() throws IOException {
        assertThat(Framing.ofRequest(request("HTTP/1.1", "Content-Length: 5, 5\r\ncontent-length: 5\r\n")))
                .isEqualTo(new Framing.Length(5));
        assertThat(Framing.ofRequest(request("HTTP/1.1", "Content-Length: 007\r\n"))).isEqualTo(new Framing.Length(7));
        assertThat(Framing.ofRequest(request("HTTP/1.1", "Transfer-Encoding: Chunked\r\n"))).isEqualTo(Framing.CHUNKED);
        assertThat(Framing.ofRequest(request("HTTP/1.1", "Accept: */*\r\n"))).isEqualTo(Framing.NONE);
    }

    // Rule (RFC 9112 §6.3): in a response, Transfer-Encoding overrides Content-Length; the relay then
    // drops the Content-Length rather than pass on two framings.
    @Test
    void aResponseWithBothIsChunked() throws IOException {
        assertThat(Framing.ofResponse(response("200 OK", "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n"), false))
                .isEqualTo(Framing.CHUNKED);
    }

    // Rule (RFC 9112 §6.3): a response to HEAD, a 1xx, a 204 and a 304 end at their head, whatever
    // their headers say; their Content-Length describes another representation.
    @ParameterizedTest(name = "{0}")
    @MethodSource("bodilessResponses")
    void aBodilessResponseEndsAtItsHead(String status, boolean toHead) throws IOException {
        assertThat(Framing.ofResponse(response(status, "Content-Length: 10\r\nTransfer-Encoding: chunked\r\n"), toHead))
                .isEqualTo(Framing.NONE);
    }

    static Stream<Arguments> bodilessResponses() {
        return Stream.of(arguments("100 Continue", false), arguments("103 Early Hints", false),
                arguments("204 No Content", false), arguments("304 Not Modified", false), arguments("200 OK", true));
    }

    // Rule (RFC 9112 §6.3): a response with neither header is delimited by the connection's end.
    @Test
    void aResponseWithoutLengthIsReadUntilClose() throws IOException {
        assertThat(Framing.ofResponse(response("200 OK", "Content-Type: text/plain\r\n"), false))
                .isEqualTo(Framing.UNTIL_CLOSE);
    }

    // Rule (RFC 9112 §6.3): a response whose length cannot be read is the server's fault (the tap
    // answers 502), and so is a coding the tap would have to pass on undecoded.
    @Test
    void aResponseWhoseLengthCannotBeReadIsTheServersFault() {
        MalformedMessage badLength = catchThrowableOfType(MalformedMessage.class,
                () -> Framing.ofResponse(response("200 OK", "Content-Length: 1, 2\r\n"), false));
        MalformedMessage coding = catchThrowableOfType(MalformedMessage.class,
                () -> Framing.ofResponse(response("200 OK", "Transfer-Encoding: gzip, chunked\r\n"), false));

        assertThat(badLength).as("refused").isNotNull();
        assertThat(coding).as("refused").isNotNull();
        assertThat(badLength.sender()).isEqualTo(Sender.SERVER);
        assertThat(badLength.fault()).isEqualTo(Fault.INVALID);
        assertThat(coding.sender()).isEqualTo(Sender.SERVER);
        assertThat(coding.fault()).isEqualTo(Fault.UNSUPPORTED_CODING);
    }

    private static RequestHead request(String version, String fields) throws IOException {
        String host = version.equals("HTTP/1.1") ? "Host: t\r\n" : "";
        return new HeadParser(ArrivingBytes.whole("POST / " + version + "\r\n" + host + fields + "\r\n")
                .from(Sender.CLIENT, 4096)).request();
    }

    private static ResponseHead response(String status, String fields) throws IOException {
        return new HeadParser(ArrivingBytes.whole("HTTP/1.1 " + status + "\r\n" + fields + "\r\n")
                .from(Sender.SERVER, 4096)).response();
    }
}
