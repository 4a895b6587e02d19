package legate.tap.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import legate.tap.http.MalformedMessage.Fault;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The head parser byte by byte, with no socket: one case per rule of RFC 9112 (and RFC 9110) it
 * enforces, each case named after its section. A refused head names its sender and its fault,
 * never the status to answer.
 */
class HeadParserTest {
    private static final int MAX_HEAD_BYTES = 1024;

    // Rule: whatever two HTTP parsers could read two ways is refused, not repaired (tap/README.md),
    // so no request can be smuggled past the tap or past whatever stands in front of it.
    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedRequests")
    void aRequestHeadThatBreaksTheRuleIsRefused(String rule, String bytes, Fault fault) {
        MalformedMessage e = refusedRequest(bytes);

        assertThat(e.sender()).isEqualTo(Sender.CLIENT);
        assertThat(e.fault()).as(e.getMessage()).isEqualTo(fault);
    }

    static Stream<Arguments> refusedRequests() {
        return Stream.of(
                arguments("RFC 9112 §2.2: a bare CR inside a field line",
                        "GET / HTTP/1.1\r\nHost: t\rX-A: 1\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.2: a bare CR ending the request line",
                        "GET / HTTP/1.1\rHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.2: a bare CR before a field line's CRLF",
                        "GET / HTTP/1.1\r\nHost: t\r\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.2: more empty lines before the request line than are forgiven",
                        "\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.2: whitespace between the request line and the first field",
                        "GET / HTTP/1.1\r\n Host: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §5.2: obsolete line folding",
                        "GET / HTTP/1.1\r\nHost: t\r\nX-A: 1\r\n 2\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §5.2: obsolete line folding with a tab",
                        "GET / HTTP/1.1\r\nHost: t\r\nX-A: 1\r\n\t2\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §5.1: a space between a field name and its colon",
                        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length : 2\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §5.1: a tab between a field name and its colon",
                        "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding\t: chunked\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §5.1: a field line without a colon",
                        "GET / HTTP/1.1\r\nHost: t\r\nX-A\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §5.1: a field line without a name",
                        "GET / HTTP/1.1\r\nHost: t\r\n: v\r\n\r\n", Fault.INVALID),
                arguments("RFC 9110 §5.1: a field name that is not a token",
                        "GET / HTTP/1.1\r\nHost: t\r\nX(A): v\r\n\r\n", Fault.INVALID),
                arguments("RFC 9110 §5.5: a NUL in a field value",
                        "GET / HTTP/1.1\r\nHost: t\r\nX-A: a\0b\r\n\r\n", Fault.INVALID),
                arguments("RFC 9110 §5.5: DEL in a field value",
                        "GET / HTTP/1.1\r\nHost: t\r\nX-A: a\u007fb\r\n\r\n", Fault.INVALID),
                arguments("RFC 9110 §5.5: another control character in a field value",
                        "GET / HTTP/1.1\r\nHost: t\r\nX-A: a\u0001b\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3: two spaces after the method",
                        "GET  / HTTP/1.1\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3: a method that is not a token",
                        "G(ET / HTTP/1.1\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3: a space inside the request target",
                        "GET /a b HTTP/1.1\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3: a non-ASCII byte in the request target",
                        "GET /caf\u00e9 HTTP/1.1\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3: a request line without a version",
                        "GET /\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3: a space after the version",
                        "GET / HTTP/1.1 \r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.3: the version's name is case-sensitive",
                        "GET / http/1.1\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.3: a version of more than one digit each side",
                        "GET / HTTP/1.10\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.3, RFC 9110 §15.6.6: HTTP/2.0 is another major version",
                        "GET / HTTP/2.0\r\nHost: t\r\n\r\n", Fault.UNSUPPORTED_VERSION),
                arguments("RFC 9112 §2.3, RFC 9110 §15.6.6: HTTP/0.9 is another major version",
                        "GET / HTTP/0.9\r\nHost: t\r\n\r\n", Fault.UNSUPPORTED_VERSION),
                arguments("RFC 9112 §3.2: a fragment in the request target",
                        "GET /a#b HTTP/1.1\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3.2.4: the target * for a method other than OPTIONS",
                        "GET * HTTP/1.1\r\nHost: t\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3.2.3: authority form, which is for CONNECT, which the tap does not tunnel",
                        "CONNECT agent:443 HTTP/1.1\r\nHost: agent:443\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3.2: an HTTP/1.1 request without Host",
                        "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3.2: two Host lines",
                        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §3.2: two Host lines in HTTP/1.0 too",
                        "GET / HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.2: a connection that ends in the middle of a head",
                        "GET / HTTP/1.1\r\nHost: t\r\n", Fault.INVALID),
                arguments("RFC 6585 §5: a head longer than the reader's bound",
                        "GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + "a".repeat(MAX_HEAD_BYTES) + "\r\n\r\n",
                        Fault.HEAD_TOO_LARGE),
                arguments("RFC 6585 §5: an endless request line",
                        "GET /" + "a".repeat(2 * MAX_HEAD_BYTES), Fault.HEAD_TOO_LARGE));
    }

    // Rule (RFC 9112 §2.2): CRLF ends a line, and a bare LF is accepted as a line end too; field
    // names keep their letter case, values lose the whitespace around them and keep every other byte.
    @Test
    void aRequestHeadKeepsItsFieldsAsTheyCame() throws IOException {
        RequestHead head = request("POST /rpc?x=1 HTTP/1.1\r\nHost: agent:41241\nA2A-Version:1.0 \r\n"
                + "X-Name: \tcaf\u00e9 au lait\t\r\n\r\n");

        assertThat(head.method()).isEqualTo("POST");
        assertThat(head.target()).isEqualTo("/rpc?x=1");
        assertThat(head.version()).isEqualTo("HTTP/1.1");
        assertThat(head.fields()).containsExactly(new Field("Host", "agent:41241"), new Field("A2A-Version", "1.0"),
                new Field("X-Name", "caf\u00e9 au lait"));
    }

    // Rule (RFC 9112 §2.2): a server ignores at least one empty line before a request line (a
    // client may send a CRLF after a body); the tap forgives four.
    @Test
    void emptyLinesBeforeARequestLineAreIgnored() throws IOException {
        assertThat(request("\r\n\n\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n").target()).isEqualTo("/");
    }

    // Rule (RFC 9112 §3.2.2): a server must accept the absolute form; the tap's own connection names
    // the agent, so only the path and query go on.
    @Test
    void anAbsoluteTargetIsReducedToItsPathAndQuery() throws IOException {
        assertThat(request("GET http://agent:41241/a/b?c=d HTTP/1.1\r\nHost: agent\r\n\r\n").target()).isEqualTo("/a/b?c=d");
        assertThat(request("GET HTTPS://agent HTTP/1.1\r\nHost: agent\r\n\r\n").target()).isEqualTo("/");
        assertThat(request("GET http://agent?c=d HTTP/1.1\r\nHost: agent\r\n\r\n").target()).isEqualTo("/?c=d");
    }

    // Rule (RFC 9112 §3.2.4): the asterisk form is OPTIONS's.
    @Test
    void theAsteriskTargetIsAcceptedForOptions() throws IOException {
        assertThat(request("OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\n").target()).isEqualTo("*");
    }

    // Rule (RFC 9112 §3.2): Host is required of HTTP/1.1 only.
    @Test
    void anHttp10RequestNeedsNoHost() throws IOException {
        RequestHead head = request("GET / HTTP/1.0\r\n\r\n");

        assertThat(head.version()).isEqualTo("HTTP/1.0");
        assertThat(head.closesConnection()).isTrue();
    }

    // Rule (RFC 9110 §2.5): a message of a higher minor version than the recipient speaks is read as
    // the highest one it speaks, so HTTP/1.2 is read as HTTP/1.1, not refused as another version.
    @Test
    void aHigherMinorVersionIsReadAsHttp11() throws IOException {
        assertThat(request("GET / HTTP/1.2\r\nHost: t\r\n\r\n").version()).isEqualTo("HTTP/1.1");
        assertThat(response("HTTP/1.9 200 OK\r\nContent-Length: 0\r\n\r\n").version()).isEqualTo("HTTP/1.1");
    }

    // Rule (RFC 9112 §9.3.2): pipelined requests are read one after the other; what follows a head
    // (its body, the next request) stays in the input for whoever reads next.
    @Test
    void pipelinedHeadsAreReadOneByOneAndTheRestStays() throws IOException {
        WireInput in = ArrivingBytes.whole("GET /one HTTP/1.1\r\nHost: t\r\n\r\nGET /two HTTP/1.1\r\nHost: t\r\n\r\nxyz")
                .from(Sender.CLIENT, MAX_HEAD_BYTES);
        HeadParser parser = new HeadParser(in);

        assertThat(parser.request().target()).isEqualTo("/one");
        assertThat(parser.request().target()).isEqualTo("/two");
        assertThat(ArrivingBytes.restOf(in)).isEqualTo("xyz");
    }

    // Rule: a connection that ends before a byte of a head is the client's goodbye, not a fault; the
    // forgiven empty lines before it change nothing.
    @Test
    void aConnectionThatEndsBetweenHeadsIsNoHead() throws IOException {
        assertThat(new HeadParser(ArrivingBytes.whole("").from(Sender.CLIENT, MAX_HEAD_BYTES)).request()).isNull();
        assertThat(new HeadParser(ArrivingBytes.whole("\r\n").from(Sender.CLIENT, MAX_HEAD_BYTES)).request()).isNull();
    }

    // Rule: bytes arrive as the network delivers them; a head cut at every possible byte reads the
    // same as one that came whole, and a head of exactly the bound still fits.
    @Test
    void aHeadArrivingByteByByteReadsTheSame() throws IOException {
        String text = "\r\nPOST / HTTP/1.1\r\nHost: t\r\nX-Pad: " + "p".repeat(200) + "\r\nContent-Length: 2\r\n\r\n";
        String atBound = "GET / HTTP/1.1\r\nHost: t\r\nX-Pad: ";
        atBound += "p".repeat(MAX_HEAD_BYTES - atBound.length() - 4) + "\r\n\r\n";

        RequestHead whole = request(text);
        RequestHead pieces = new HeadParser(ArrivingBytes.inPieces(text, 1).from(Sender.CLIENT, MAX_HEAD_BYTES)).request();

        assertThat(pieces).isEqualTo(whole);
        assertThat(new HeadParser(ArrivingBytes.inPieces(atBound, 1).from(Sender.CLIENT, MAX_HEAD_BYTES)).request())
                .as("a head of %d bytes", atBound.length()).isNotNull();
    }

    // Rule (RFC 9112 §4, §2.2): a status line is a version, a three-digit status and an optional
    // reason; what breaks it is the server's fault, and a server gets no leeway for empty lines.
    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedResponses")
    void aResponseHeadThatBreaksTheRuleIsRefusedAsTheServers(String rule, String bytes, Fault fault) {
        MalformedMessage e = catchThrowableOfType(MalformedMessage.class,
                () -> new HeadParser(ArrivingBytes.whole(bytes).from(Sender.SERVER, MAX_HEAD_BYTES)).response());

        assertThat(e).as("refused").isNotNull();
        assertThat(e.sender()).isEqualTo(Sender.SERVER);
        assertThat(e.fault()).as(e.getMessage()).isEqualTo(fault);
    }

    static Stream<Arguments> refusedResponses() {
        return Stream.of(
                arguments("RFC 9112 §4: a status of two digits", "HTTP/1.1 20 OK\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §4: a status of four digits", "HTTP/1.1 2000 OK\r\n\r\n", Fault.INVALID),
                arguments("RFC 9110 §15: a status outside 100-599", "HTTP/1.1 600 Odd\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §4: a control character in the reason phrase",
                        "HTTP/1.1 200 O\u0001K\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §4: something that is not HTTP at all", "SSH-2.0-OpenSSH_9.2\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.3: HTTP/2.0 in a status line", "HTTP/2.0 200 OK\r\n\r\n", Fault.UNSUPPORTED_VERSION),
                arguments("RFC 9112 §2.2: an empty line before a status line", "\r\nHTTP/1.1 200 OK\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §2.2: a bare CR in a response head",
                        "HTTP/1.1 200 OK\r\nX-A: 1\rX-B: 2\r\n\r\n", Fault.INVALID),
                arguments("RFC 9112 §5.2: obsolete line folding in a response",
                        "HTTP/1.1 200 OK\r\nX-A: 1\r\n 2\r\n\r\n", Fault.INVALID),
                arguments("RFC 6585 §5: a response head longer than the reader's bound",
                        "HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(MAX_HEAD_BYTES) + "\r\n\r\n", Fault.HEAD_TOO_LARGE));
    }

    // Rule (RFC 9112 §4): the reason phrase is optional and passed on as it came.
    @Test
    void aStatusLineNeedsNoReasonPhrase() throws IOException {
        ResponseHead bare = response("HTTP/1.1 204\r\n\r\n");
        ResponseHead empty = response("HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n");
        ResponseHead spaced = response("HTTP/1.0 404 Not  Here\r\n\r\n");

        assertThat(List.of(bare.status(), bare.reason())).containsExactly(204, "");
        assertThat(List.of(empty.status(), empty.reason())).containsExactly(200, "");
        assertThat(List.of(spaced.version(), spaced.status(), spaced.reason())).containsExactly("HTTP/1.0", 404, "Not  Here");
    }

    // Rule (RFC 9110 §15.2): interim responses precede the final one on the same connection; the
    // parser reads each head in turn and leaves the final one's body in the input.
    @Test
    void anInterimResponseIsFollowedByTheFinalOne() throws IOException {
        WireInput in = ArrivingBytes.whole("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
                .from(Sender.SERVER, MAX_HEAD_BYTES);
        HeadParser parser = new HeadParser(in);

        assertThat(parser.response().status()).isEqualTo(100);
        assertThat(parser.response().status()).isEqualTo(200);
        assertThat(ArrivingBytes.restOf(in)).isEqualTo("{}");
    }

    private static RequestHead request(String bytes) throws IOException {
        return new HeadParser(ArrivingBytes.whole(bytes).from(Sender.CLIENT, MAX_HEAD_BYTES)).request();
    }

    private static ResponseHead response(String bytes) throws IOException {
        return new HeadParser(ArrivingBytes.whole(bytes).from(Sender.SERVER, MAX_HEAD_BYTES)).response();
    }

    private static MalformedMessage refusedRequest(String bytes) {
        MalformedMessage e = catchThrowableOfType(MalformedMessage.class, () -> request(bytes));
        assertThat(e).as("refused").isNotNull();
        return e;
    }
}
