package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import legate.tap.http.MalformedMessage;
import legate.tap.http.MalformedMessage.Fault;
import legate.tap.http.Sender;
import legate.wire.jsonrpc.JsonRpcError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tap's answer to a message it would not read, for every sender and fault the codec reports:
 * the client's faults are the client's (4xx, or 5xx for what the tap does not do), the agent's are
 * a 502 naming the agent (tap/README.md, "What transparent means here").
 */
class ErrorReplyTest {
    private static final URI TARGET = URI.create("http://127.0.0.1:41241");
    private static final ObjectMapper JSON = new ObjectMapper();

    // Rule (RFC 9112, RFC 9110 §15, RFC 6585 §5): a client's fault gets the status that names it
    // (400, 431, 413, 501, 505), and a JSON-RPC error with the request's id; an agent's fault gets
    // a 502 naming the agent.
    @ParameterizedTest(name = "{0} {1} -> {2}")
    @MethodSource("answers")
    void eachFaultGetsItsStatus(Sender sender, Fault fault, int status, int code) throws Exception {
        ErrorReply reply = ErrorReply.refusing(new MalformedMessage(sender, fault, "what broke"), TARGET, 1024);

        assertThat(reply.status()).isEqualTo(status);
        assertThat(reply.reasonPhrase()).isNotEqualTo("Error");
        JsonNode error = JSON.readTree(reply.json("{\"jsonrpc\":\"2.0\",\"id\":5}".getBytes(StandardCharsets.UTF_8)));
        assertThat(error.get("id").asInt()).isEqualTo(5);
        assertThat(error.get("error").get("code").asInt()).isEqualTo(code);
        assertThat(error.get("error").get("message").asText()).startsWith("legate tap: ")
                .contains(sender == Sender.SERVER ? TARGET.toString() : "nothing was forwarded");
    }

    static Stream<Arguments> answers() {
        int invalidRequest = JsonRpcError.INVALID_REQUEST;
        int internalError = JsonRpcError.INTERNAL_ERROR;
        return Stream.of(
                arguments(Sender.CLIENT, Fault.INVALID, 400, invalidRequest),
                arguments(Sender.CLIENT, Fault.HEAD_TOO_LARGE, 431, invalidRequest),
                arguments(Sender.CLIENT, Fault.BODY_TOO_LARGE, 413, invalidRequest),
                arguments(Sender.CLIENT, Fault.UNSUPPORTED_CODING, 501, invalidRequest),
                arguments(Sender.CLIENT, Fault.UNSUPPORTED_VERSION, 505, invalidRequest),
                arguments(Sender.SERVER, Fault.INVALID, 502, internalError),
                arguments(Sender.SERVER, Fault.HEAD_TOO_LARGE, 502, internalError),
                arguments(Sender.SERVER, Fault.BODY_TOO_LARGE, 502, internalError),
                arguments(Sender.SERVER, Fault.UNSUPPORTED_CODING, 502, internalError),
                arguments(Sender.SERVER, Fault.UNSUPPORTED_VERSION, 502, internalError));
    }

    // Rule: the table above is the whole mapping; a fault the codec gains fails this test until the
    // table says what a client gets for it.
    @Test
    void everySenderAndFaultIsInTheTable() {
        Set<String> listed = answers().map(a -> a.get()[0] + " " + a.get()[1]).collect(Collectors.toSet());
        Set<String> all = Stream.of(Sender.values())
                .flatMap(s -> Stream.of(Fault.values()).map(f -> s + " " + f)).collect(Collectors.toSet());

        assertThat(listed).isEqualTo(all);
    }
}
