package legate.tap.show;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import legate.wire.sse.SseEvent;

/**
 * What the tap saw of one HTTP exchange, reported as it happens: the request, then either a whole
 * response, or a stream opening, its frames and its close, or the tap's own refusal; and, from
 * {@link ProtocolCheck}, any problem seen in them. Every event
 * names its exchange by the number the tap gave it, so concurrent exchanges can be told apart.
 *
 * <p>Bodies are the bytes as they crossed the tap, never parsed into model objects, so broken
 * traffic stays visible. The arrays are shared, not copied: listeners read them and never write.
 *
 * <p>A gRPC call is an exchange too (protocol {@code HTTP/2}): its request message is the request's
 * body and a unary answer the response's, a server stream's messages are frames, its status the
 * stream's trailers (or the response's headers), all as the gRPC view decoded them: messages as
 * ProtoJSON, {@code grpc-status-details-bin} as its google.rpc.Status in ProtoJSON, since protobuf's
 * bytes say nothing to a person. See {@link GrpcStatus}.
 */
public sealed interface ExchangeEvent {
    /** The exchange's number, counting from 1 in the order requests arrived. */
    long exchange();

    /** When the tap saw it. */
    Instant at();

    /** An HTTP header as it crossed the tap. */
    record Header(String name, String value) {
    }

    /** How a response body ended. */
    enum Outcome {
        /** Every byte the upstream sent reached the client. */
        COMPLETE,
        /** The client went away before the end; the tap hung up on the upstream too. */
        CLIENT_GONE,
        /** The upstream broke the body off; the tap broke off the client's response too, so it cannot look whole. */
        UPSTREAM_BROKE
    }

    /**
     * A request, read whole before it is forwarded.
     *
     * @param target the path and query as the client sent them
     * @param headers the headers that matter to A2A, in arrival order
     */
    record Request(long exchange, Instant at, String method, String target, String protocol,
                   List<Header> headers, byte[] body) implements ExchangeEvent {
        /** The path of A2A's gRPC service (A2A §10): a call's target is this and its rpc's name. */
        public static final String GRPC_SERVICE = "/lf.a2a.v1.A2AService/";

        /**
         * The rpc this is a gRPC call of ({@code SendMessage} for {@code /lf.a2a.v1.A2AService/SendMessage}),
         * or null when it is not a call of A2A's gRPC service.
         */
        public String grpcMethod() {
            return target.startsWith(GRPC_SERVICE) && target.length() > GRPC_SERVICE.length()
                    ? target.substring(GRPC_SERVICE.length()) : null;
        }
    }

    /**
     * A response that is not an event stream, reported once its body has passed.
     *
     * @param body the body as far as the tap keeps it for display
     * @param bodyBytes how many body bytes passed, which is more than {@code body.length} when it was cut
     */
    record Response(long exchange, Instant at, int status, List<Header> headers, byte[] body, long bodyBytes,
                    Outcome outcome, Duration elapsed) implements ExchangeEvent {
    }

    /** The head of a {@code text/event-stream} response, reported before its first frame. */
    record StreamOpened(long exchange, Instant at, int status, List<Header> headers) implements ExchangeEvent {
    }

    /** One SSE frame, reported the moment it passed on to the client. */
    record Frame(long exchange, Instant at, int index, SseEvent event) implements ExchangeEvent {
    }

    /**
     * The end of an event stream.
     *
     * @param trailers the fields that came after the last frame: a gRPC stream's status
     *     ({@code grpc-status}, {@code grpc-message}, {@code grpc-status-details-bin}); none on HTTP/1.1
     */
    record StreamClosed(long exchange, Instant at, int frames, long bodyBytes, Outcome outcome, Duration elapsed,
                        List<Header> trailers) implements ExchangeEvent {
    }

    /**
     * The tap answered the client itself and nothing reached the upstream, or nothing came back from it.
     *
     * @param reason what went wrong, naming the target when the upstream is unreachable
     */
    record Refused(long exchange, Instant at, int status, String reason) implements ExchangeEvent {
    }

    /**
     * A breach of the protocol seen in the exchange's events so far, reported right after the event
     * that showed it ({@link ProtocolCheck}).
     *
     * @param detail what was seen, for a person: the id that differed, the state, the error code
     */
    record Flagged(long exchange, Instant at, Problem problem, String detail) implements ExchangeEvent {
    }
}
