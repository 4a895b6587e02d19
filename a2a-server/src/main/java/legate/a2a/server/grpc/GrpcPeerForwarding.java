package legate.a2a.server.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.ProtoJson;
import legate.a2a.model.grpc.GrpcErrorMapping;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.http.PeerForwarding;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.sse.SseParser;
import lf.a2a.v1.StreamResponse;

/**
 * A gRPC call carried out by the instance that runs its conversation (README "Several instances").
 * An instance announces the URL it answers JSON-RPC at, so the call is translated at this edge: the
 * request message goes there as the JSON-RPC request of the same operation (ProtoJSON params), with
 * the call's metadata as headers (the credential, A2A-Version, A2A-Extensions, traceparent) and
 * {@link PeerForwarding}'s mark that stops a second hop; the reply comes back as the response
 * message, or the SSE stream frame by frame as response messages, or the error as the status this
 * binding answers it with.
 *
 * <p>The credential is checked again where the call is carried out, as the HTTP bindings' forwarded
 * requests are: the receiving instance has already authenticated it, and forwarding never widens
 * what a caller may do.
 */
final class GrpcPeerForwarding {
    // A reply larger than this is refused, not buffered: a misbehaving peer cannot exhaust memory.
    private static final int MAX_REPLY_BYTES = 64 << 20;
    private static final String JSON = "application/json";
    private final PeerForwarding http;

    /** @param http the server's forwarding, which every binding shares */
    GrpcPeerForwarding(PeerForwarding http) {
        this.http = http;
    }

    /**
     * A unary call answered by the peer at {@code peer}: its result read into {@code reply}.
     *
     * @throws PeerForwarding.Unreachable when the peer cannot be reached
     * @throws StatusRuntimeException the peer's error as this binding's status
     */
    @SuppressWarnings("unchecked")
    <T extends Message> T unary(URI peer, String method, Message request, Metadata headers, Message.Builder reply) {
        // The call's deadline bounds the hop too: without it, a caller gone at its deadline left this
        // instance waiting, a thread and a connection held, until the peer answered (a blocking
        // SendMessage: as long as the turn). A stream needs none: its cancel hangs the hop up.
        Deadline deadline = Context.current().getDeadline();
        // A caller that cancels is gone too: the blocking send is interrupted, which makes the JDK
        // abandon the exchange. Removed once answered, so a late cancel cannot hit the reply's write.
        Thread caller = Thread.currentThread();
        Context.CancellationListener hangUp = c -> caller.interrupt();
        Context.current().addListener(hangUp, Runnable::run);
        HttpResponse<InputStream> answer;
        try {
            answer = send(peer, method, request, headers, deadline);
        } catch (PeerForwarding.Unreachable e) {
            if (deadline != null && deadline.isExpired()) {
                throw GrpcErrorMapping.exception(A2aError.INTERNAL, Status.Code.DEADLINE_EXCEEDED,
                        "the call's deadline passed while the instance that runs the conversation (" + peer
                                + ") carried it out; the task goes on there", Map.of());
            }
            throw e;
        } finally {
            Context.current().removeListener(hangUp);
            if (Context.current().isCancelled()) {
                // The interrupt was the hang-up's; the call is over, and the thread goes back to gRPC clean.
                Thread.interrupted();
            }
        }
        try (InputStream in = answer.body()) {
            return (T) read(ForwardedReply.result(body(in), peer, stopping(answer)), reply, peer);
        } catch (IOException e) {
            throw cut(peer, e);
        }
    }

    /**
     * A streaming call answered by the peer: each SSE frame one response message, sent as it
     * arrives. Blocks the calling thread until the stream is over; a client that cancels closes the
     * upstream stream (A2A §3.5.2: the task goes on, only this stream ends).
     *
     * @throws PeerForwarding.Unreachable when the peer cannot be reached (the call is still open)
     */
    void stream(URI peer, String method, Message request, Metadata headers,
                ServerCallStreamObserver<StreamResponse> call) {
        HttpResponse<InputStream> answer = send(peer, method, request, headers, null);
        InputStream in = answer.body();
        Runnable hangUp = () -> closeQuietly(in);
        call.setOnCancelHandler(hangUp);
        // The cancel handler runs once this method returns; the context hears of a cancel at once.
        Context.current().addListener(c -> hangUp.run(), Runnable::run);
        try {
            if (!answer.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
                // Refused before its first event (a credential the peer does not accept): one JSON-RPC error.
                ForwardedReply.result(body(in), peer, stopping(answer));
                throw GrpcErrorMapping.exception(A2aError.INTERNAL, "the instance that runs the conversation ("
                        + peer + ") answered a stream with a single result");
            }
            AtomicLong first = FirstEventIds.current();
            new SseParser(MAX_REPLY_BYTES).parse(in, frame -> {
                JsonNode result = ForwardedReply.result(frame.data().getBytes(StandardCharsets.UTF_8), peer, false);
                // The peer's SSE id of the first frame names the first message, as this instance's
                // own would (FirstEventIds); -1 once the headers have left with that message.
                first.compareAndSet(0, eventId(frame.id()));
                call.onNext((StreamResponse) read(result, StreamResponse.newBuilder(), peer));
                first.compareAndSet(0, -1);
                return true;
            });
            if (!call.isCancelled()) {
                call.onCompleted();
            }
        } catch (StatusRuntimeException e) {
            end(call, e);
        } catch (IOException e) {
            end(call, cut(peer, e));
        } finally {
            hangUp.run();
        }
    }

    /** An SSE id as an event's number; 0 when it is none. */
    private static long eventId(String id) {
        try {
            return id == null ? 0 : Math.max(0, Long.parseLong(id.strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private HttpResponse<InputStream> send(URI peer, String method, Message request, Metadata headers, Deadline deadline) {
        HttpRequest.Builder out = HttpRequest.newBuilder(peer)
                .POST(HttpRequest.BodyPublishers.ofString(JsonRpcCodec.requestJson(1, method, ProtoJson.print(request))))
                .header("Content-Type", JSON);
        if (deadline != null) {
            out.timeout(Duration.ofNanos(Math.max(1, deadline.timeRemaining(TimeUnit.NANOSECONDS))));
        }
        for (String key : headers.keys()) {
            // The metadata the credential schemes read (CallerInterceptor), less gRPC's own and the hop-by-hop
            // headers; accept-encoding is gRPC's framing choice, and a compressed JSON-RPC reply would not be read.
            String name = key.toLowerCase(Locale.ROOT);
            if (name.endsWith(Metadata.BINARY_HEADER_SUFFIX) || name.startsWith("grpc-") || name.equals("content-type")
                    || name.equals("accept-encoding") || !PeerForwarding.forwards(name)) {
                continue;
            }
            Iterable<String> values = headers.getAll(GrpcMetadata.ascii(key));
            if (values != null) {
                values.forEach(v -> out.header(name, v));
            }
        }
        List<X509Certificate> certificates = CallerInterceptor.CERTIFICATES.get();
        if (certificates != null) {
            http.vouch(certificates, out);
        }
        return http.send(out, peer);
    }

    private static Message read(JsonNode result, Message.Builder into, URI peer) {
        if (into instanceof Empty.Builder && (result == null || result.isNull())) {
            // PROTOCOL (A2A §9.4): JSON-RPC answers google.protobuf.Empty as null.
            return Empty.getDefaultInstance();
        }
        try {
            return ProtoJson.read(result, "result", into).build();
        } catch (A2aException e) {
            throw GrpcErrorMapping.exception(A2aError.INTERNAL, "the instance that runs the conversation (" + peer
                    + ") answered an unreadable result: " + e.getMessage());
        }
    }

    private static byte[] body(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_REPLY_BYTES + 1);
        if (body.length > MAX_REPLY_BYTES) {
            throw new IOException("its reply is larger than " + MAX_REPLY_BYTES + " bytes");
        }
        return body;
    }

    /** PROTOCOL (A2A §9): a draining JSON-RPC server answers 503; over gRPC that is UNAVAILABLE. */
    private static boolean stopping(HttpResponse<?> answer) {
        return answer.statusCode() == 503;
    }

    private static StatusRuntimeException cut(URI peer, IOException e) {
        return GrpcErrorMapping.exception(A2aError.INTERNAL, Status.Code.UNAVAILABLE,
                "the answer of the instance that runs the conversation (" + peer + ") was cut: " + e.getMessage(),
                Map.of());
    }

    private static void end(ServerCallStreamObserver<StreamResponse> call, StatusRuntimeException failure) {
        // A cancelled call is over already; what ended the upstream stream was its own cancel.
        if (!call.isCancelled()) {
            call.onError(failure);
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // Closing is how the upstream stream is hung up; nothing more to do if it fails.
        }
    }

}
