package legate.tap.grpc;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.rpc.ErrorInfo;
import com.google.rpc.Status;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import legate.a2a.model.ProtoJson;
import legate.tap.grpc.Http2Frames.Frame;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.tap.show.ExchangeListener;
import legate.tap.show.ShownHeaders;
import legate.wire.json.WireJson;
import legate.wire.sse.SseEvent;
import lf.a2a.v1.A2AServiceGrpc;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.hpack.HpackDecoder;
import org.eclipse.jetty.http2.hpack.HpackException;

/**
 * One gRPC connection the tap forwards (A2A §10), read from copies of its bytes as they pass: each
 * call (an HTTP/2 stream) is an exchange of the tap's, numbered with the HTTP/1.1 ones and reported
 * to the same listeners, so the console, the log, the page and the problem checks see it. Its
 * request message is the request's body; a unary answer is a response whose headers end with the
 * call's trailers; a server stream ({@code SendStreamingMessage}, {@code SubscribeToTask}) opens
 * at the response headers, has a frame per message and closes at the trailers, which carry its
 * status. Messages are shown as ProtoJSON, decoded with our model's types for the method, and
 * {@code grpc-status-details-bin} as the ProtoJSON of its google.rpc.Status, where an A2A error's
 * ErrorInfo is: protobuf's bytes say nothing to a person, and the A2A error a client must act on is
 * inside them. Credentials in metadata are masked as on HTTP ({@link ShownHeaders}).
 *
 * <p>It never changes or holds the bytes. Anything it cannot read ends the showing (with a console
 * line saying why), never the forwarding. Each direction is fed by its own forwarding thread; the
 * calls' state is guarded by this, and a call's events are reported in their order: its request
 * before anything the agent answered to it.
 */
public final class GrpcCallView {
    /** Compressed-flag and length of a gRPC message (gRPC over HTTP/2: Length-Prefixed-Message). */
    private static final int PREFIX_BYTES = 5;
    /** A message larger than this is named, not decoded: the tap shows at most this much of an HTTP body too. */
    static final int MAX_SHOWN_MESSAGE_BYTES = 1024 * 1024;
    private static final String PROTOCOL = "HTTP/2";
    private static final Map<String, MethodDescriptor<?, ?>> METHODS = new HashMap<>();

    static {
        for (MethodDescriptor<?, ?> m : A2AServiceGrpc.getServiceDescriptor().getMethods()) {
            METHODS.put("/" + m.getFullMethodName(), m);
        }
    }

    private final ExchangeListener listener;
    private final LongSupplier numbers;
    private final ShownHeaders shown;
    private final Clock clock;
    private final Consumer<String> console;
    private final Direction fromClient;
    private final Direction fromAgent;
    private final Map<Integer, Call> calls = new HashMap<>();
    private volatile boolean stopped;

    /**
     * @param listener takes each call's events, as the tap's HTTP/1.1 exchanges hand theirs over
     * @param numbers the number of the exchange that starts now, shared with the HTTP/1.1 exchanges
     * @param shown which headers (metadata) the events carry, credentials masked
     * @param console takes a line when the connection can no longer be read
     */
    public GrpcCallView(ExchangeListener listener, LongSupplier numbers, ShownHeaders shown, Clock clock,
                        Consumer<String> console) {
        this.listener = listener;
        this.numbers = numbers;
        this.shown = shown;
        this.clock = clock;
        this.console = console;
        this.fromClient = new Direction(true);
        this.fromAgent = new Direction(false);
    }

    /** Bytes the client sent, preface included, as they were forwarded. */
    public void fromClient(byte[] bytes, int offset, int length) {
        fromClient.feed(bytes, offset, length);
    }

    /** Bytes the agent sent back, as they were forwarded. */
    public void fromAgent(byte[] bytes, int offset, int length) {
        fromAgent.feed(bytes, offset, length);
    }

    /**
     * The connection has ended: a call still open was cut, by the client when it closed first,
     * else by the agent.
     */
    public synchronized void closed(boolean byClient) {
        for (Call call : List.copyOf(calls.values())) {
            call.cut(byClient ? Outcome.CLIENT_GONE : Outcome.UPSTREAM_BROKE);
        }
        calls.clear();
    }

    /** One HTTP/2 stream: a call, and what has been reported of it. */
    private final class Call {
        final int stream;
        final long n;
        final Instant start;
        final String path;
        final MethodDescriptor<?, ?> method;
        final List<Header> requestHeaders;
        final ByteArrayOutputStream request = new ByteArrayOutputStream();
        final ByteArrayOutputStream response = new ByteArrayOutputStream();
        boolean requestReported;
        byte[] requestBody = new byte[0];
        int status = -1;
        List<Header> responseHeaders = List.of();
        boolean streamOpened;
        byte[] answer = new byte[0];
        int frames;
        long streamBytes;

        Call(int stream, String path, List<Header> requestHeaders) {
            this.stream = stream;
            this.n = numbers.getAsLong();
            this.start = clock.instant();
            this.path = path;
            this.method = METHODS.get(path);
            this.requestHeaders = requestHeaders;
        }

        boolean streaming() {
            return method != null && method.getType() == MethodDescriptor.MethodType.SERVER_STREAMING;
        }

        /** The request, once: at its first message, at its end, or when the agent answers before either. */
        void reportRequest() {
            if (!requestReported) {
                requestReported = true;
                listener.on(new Request(n, start, "POST", path, PROTOCOL, requestHeaders, requestBody));
            }
        }

        void responseHeaders(int status, List<Header> headers) {
            reportRequest();
            this.status = status;
            this.responseHeaders = headers;
            if (streaming()) {
                streamOpened = true;
                listener.on(new StreamOpened(n, clock.instant(), status, headers));
            }
        }

        void message(boolean client, byte[] shownMessage, long wireBytes) {
            if (client) {
                if (!requestReported) {
                    requestBody = shownMessage;
                    reportRequest();
                }
                // A2A has no client streams: a further request message is an unknown method's, not shown.
                return;
            }
            reportRequest();
            if (streamOpened) {
                streamBytes += wireBytes;
                listener.on(new ExchangeEvent.Frame(n, clock.instant(), ++frames,
                        new SseEvent("message", new String(shownMessage, StandardCharsets.UTF_8), null)));
            } else {
                answer = shownMessage;
            }
        }

        /** The trailers: the call's status, and its end. */
        void trailers(int status, List<Header> trailers) {
            reportRequest();
            Instant now = clock.instant();
            if (streamOpened) {
                listener.on(new StreamClosed(n, now, frames, streamBytes, Outcome.COMPLETE, Duration.between(start, now),
                        trailers));
            } else {
                // A unary answer, or Trailers-Only (an error before any message): one response, its
                // headers then its trailers, as HTTP/1.1's one head.
                List<Header> all = new ArrayList<>(responseHeaders);
                all.addAll(trailers);
                listener.on(new Response(n, now, this.status >= 0 ? this.status : status, all, answer, answer.length,
                        Outcome.COMPLETE, Duration.between(start, now)));
            }
        }

        /** Reset, or its connection gone, before its trailers. */
        void cut(Outcome outcome) {
            reportRequest();
            Instant now = clock.instant();
            if (streamOpened) {
                listener.on(new StreamClosed(n, now, frames, streamBytes, outcome, Duration.between(start, now), List.of()));
            } else {
                // No answer came: status 0, as HTTP/2 has no response without a :status.
                listener.on(new Response(n, now, Math.max(0, status), responseHeaders, answer, answer.length, outcome,
                        Duration.between(start, now)));
            }
        }
    }

    /** One direction: its frames, its HPACK state (each side has its own table, RFC 7541 §2.2) and a header block in progress. */
    private final class Direction implements Http2Frames.Sink {
        private final boolean client;
        private final Http2Frames frames;
        private final HpackDecoder hpack = new HpackDecoder(1 << 20, System::nanoTime);
        private final ByteArrayOutputStream block = new ByteArrayOutputStream();
        private int blockStream;
        private boolean blockEndsStream;

        Direction(boolean client) {
            this.client = client;
            this.frames = new Http2Frames(client, this);
            hpack.setMaxTableCapacity(1 << 16);
        }

        void feed(byte[] bytes, int offset, int length) {
            if (stopped) {
                return;
            }
            try {
                frames.feed(bytes, offset, length);
            } catch (RuntimeException e) {
                stop("cannot read the " + (client ? "client's" : "agent's") + " HTTP/2 frames (" + e.getMessage() + ")");
            }
        }

        @Override
        public void frame(Frame f) {
            if (stopped) {
                return;
            }
            switch (f.type()) {
                case Frame.HEADERS -> {
                    block.reset();
                    blockStream = f.stream();
                    blockEndsStream = (f.flags() & Frame.END_STREAM) != 0;
                    block.writeBytes(Http2Frames.content(f));
                    if ((f.flags() & Frame.END_HEADERS) != 0) {
                        headers();
                    }
                }
                case Frame.CONTINUATION -> {
                    block.writeBytes(f.payload());
                    if ((f.flags() & Frame.END_HEADERS) != 0) {
                        headers();
                    }
                }
                case Frame.DATA -> data(f.stream(), Http2Frames.content(f), (f.flags() & Frame.END_STREAM) != 0);
                case Frame.RST_STREAM -> reset(f.stream());
                default -> {
                    // SETTINGS, PING, WINDOW_UPDATE, GOAWAY, PRIORITY: the connection's, not a call's.
                }
            }
        }

        private void headers() {
            MetaData meta;
            try {
                meta = hpack.decode(ByteBuffer.wrap(block.toByteArray()));
            } catch (HpackException e) {
                stop("cannot decode the " + (client ? "client's" : "agent's") + " HPACK headers (" + e.getMessage() + ")");
                return;
            }
            List<Header> fields = fields(meta);
            synchronized (GrpcCallView.this) {
                if (client) {
                    if (meta instanceof MetaData.Request request && !calls.containsKey(blockStream)) {
                        Call call = new Call(blockStream, request.getHttpURI().getPath(), fields);
                        calls.put(blockStream, call);
                        if (blockEndsStream) {
                            call.reportRequest();
                        }
                    }
                    return;
                }
                Call call = calls.get(blockStream);
                if (call == null) {
                    return;
                }
                boolean end = blockEndsStream || meta.getHttpFields().get("grpc-status") != null;
                int status = meta instanceof MetaData.Response response ? response.getStatus() : -1;
                if (!end) {
                    call.responseHeaders(status, fields);
                    return;
                }
                // The trailers, or Trailers-Only: the response's only HEADERS, status and all.
                call.trailers(status, fields);
                calls.remove(blockStream);
            }
        }

        private void data(int stream, byte[] bytes, boolean endsStream) {
            synchronized (GrpcCallView.this) {
                Call call = calls.get(stream);
                if (call == null) {
                    return;
                }
                ByteArrayOutputStream buf = client ? call.request : call.response;
                buf.writeBytes(bytes);
                byte[] all = buf.toByteArray();
                int at = 0;
                while (all.length - at >= PREFIX_BYTES) {
                    int size = ((all[at + 1] & 0xff) << 24) | ((all[at + 2] & 0xff) << 16) | ((all[at + 3] & 0xff) << 8)
                            | (all[at + 4] & 0xff);
                    if (size < 0 || all.length - at - PREFIX_BYTES < size) {
                        break;
                    }
                    byte[] message = Arrays.copyOfRange(all, at + PREFIX_BYTES, at + PREFIX_BYTES + size);
                    boolean compressed = all[at] != 0;
                    at += PREFIX_BYTES + size;
                    call.message(client, show(call, message, compressed), PREFIX_BYTES + size);
                }
                buf.reset();
                buf.write(all, at, all.length - at);
                if (client && endsStream) {
                    call.reportRequest();
                }
            }
        }

        private void reset(int stream) {
            synchronized (GrpcCallView.this) {
                Call call = calls.remove(stream);
                if (call != null) {
                    call.cut(client ? Outcome.CLIENT_GONE : Outcome.UPSTREAM_BROKE);
                }
            }
        }

        /** The fields of a header block but its pseudo-headers, as the events carry them. */
        private List<Header> fields(MetaData meta) {
            List<Header> fields = new ArrayList<>();
            for (HttpField f : meta.getHttpFields()) {
                String name = f.getName();
                if (name.startsWith(":")) {
                    continue;
                }
                String value = f.getValue();
                shown.collect(name, name.equalsIgnoreCase("grpc-status-details-bin") ? statusDetails(value) : value, fields);
            }
            return fields;
        }

        /** A message as ProtoJSON in UTF-8; a line saying why not, when it cannot be. */
        private byte[] show(Call call, byte[] message, boolean compressed) {
            String why;
            if (compressed) {
                why = "(compressed, " + message.length + " bytes, not shown)";
            } else if (message.length > MAX_SHOWN_MESSAGE_BYTES) {
                why = "(" + message.length + " bytes, not shown)";
            } else if (call.method == null) {
                why = "(" + message.length + " bytes of a method that is not an rpc of lf.a2a.v1.A2AService)";
            } else {
                MethodDescriptor.Marshaller<?> m = client ? call.method.getRequestMarshaller()
                        : call.method.getResponseMarshaller();
                if (!(m instanceof MethodDescriptor.PrototypeMarshaller<?> p) || !(p.getMessagePrototype() instanceof Message proto)) {
                    why = "(" + message.length + " bytes)";
                } else {
                    try {
                        return ProtoJson.print(proto.getParserForType().parseFrom(message)).getBytes(StandardCharsets.UTF_8);
                    } catch (InvalidProtocolBufferException e) {
                        // Shown as broken, not hidden: the tap exists to show traffic as it is.
                        why = "(" + message.length + " bytes that are not a " + proto.getDescriptorForType().getName()
                                + ": " + e.getMessage() + ")";
                    }
                }
            }
            return why.getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * {@code grpc-status-details-bin} (base64 of a google.rpc.Status) as the ProtoJSON of that
     * Status: its code, message and details, an ErrorInfo with its reason, domain and metadata, any
     * other detail as its type and base64 value. As it came when it is not a Status.
     */
    static String statusDetails(String base64) {
        Status status;
        try {
            status = Status.parseFrom(Base64.getDecoder().decode(base64.strip()));
        } catch (IllegalArgumentException | InvalidProtocolBufferException e) {
            return base64;
        }
        ObjectNode json = WireJson.mapper().createObjectNode();
        json.put("code", status.getCode());
        if (!status.getMessage().isEmpty()) {
            json.put("message", status.getMessage());
        }
        if (status.getDetailsCount() > 0) {
            ArrayNode details = json.putArray("details");
            for (Any detail : status.getDetailsList()) {
                ObjectNode d = details.addObject().put("@type", detail.getTypeUrl());
                try {
                    if (detail.is(ErrorInfo.class)) {
                        ErrorInfo info = detail.unpack(ErrorInfo.class);
                        d.put("reason", info.getReason()).put("domain", info.getDomain());
                        if (!info.getMetadataMap().isEmpty()) {
                            ObjectNode metadata = d.putObject("metadata");
                            info.getMetadataMap().forEach(metadata::put);
                        }
                        continue;
                    }
                } catch (InvalidProtocolBufferException e) {
                    // an ErrorInfo that does not parse: shown as its bytes, as any detail the tap cannot read
                }
                d.put("value", Base64.getEncoder().encodeToString(detail.getValue().toByteArray()));
            }
        }
        return WireJson.write(json);
    }

    private void stop(String why) {
        if (!stopped) {
            stopped = true;
            console.accept("legate tap: gRPC: " + why + "; the rest of this connection is forwarded, not shown");
        }
    }
}
