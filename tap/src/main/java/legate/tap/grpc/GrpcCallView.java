package legate.tap.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import legate.a2a.model.ProtoJson;
import legate.tap.grpc.Http2Frames.Frame;
import lf.a2a.v1.A2AServiceGrpc;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.hpack.HpackDecoder;
import org.eclipse.jetty.http2.hpack.HpackException;

/**
 * What the tap shows of one gRPC connection it forwards (A2A §10): for each call (an HTTP/2 stream)
 * its method and {@code a2a-version}, each message both ways as ProtoJSON decoded with our model's
 * types for that method, and its status with the A2A error's reason. It watches copies of the bytes
 * as they are forwarded and never changes or holds them; anything it cannot read ends the showing
 * (with a line saying why), never the forwarding.
 *
 * <p>Credentials in metadata are never shown: only the method, the version and the status are.
 * Each direction is fed by its own forwarding thread; the shared per-stream state is guarded by this.
 */
public final class GrpcCallView {
    /** Compressed-flag and length of a gRPC message (gRPC over HTTP/2: Length-Prefixed-Message). */
    private static final int PREFIX_BYTES = 5;
    private static final Map<String, MethodDescriptor<?, ?>> METHODS = new HashMap<>();

    static {
        for (MethodDescriptor<?, ?> m : A2AServiceGrpc.getServiceDescriptor().getMethods()) {
            METHODS.put("/" + m.getFullMethodName(), m);
        }
    }

    private final long exchange;
    private final Consumer<String> console;
    private final Direction fromClient;
    private final Direction fromAgent;
    private final Map<Integer, Call> calls = new HashMap<>();
    private volatile boolean stopped;

    /** @param console takes each line, as the tap's console prints it */
    public GrpcCallView(long exchange, Consumer<String> console) {
        this.exchange = exchange;
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

    private void say(int stream, String what) {
        console.accept("[#" + exchange + "] gRPC " + stream + " " + what);
    }

    /** One HTTP/2 stream: a call. */
    private static final class Call {
        MethodDescriptor<?, ?> method;
        String path = "?";
        final ByteArrayOutputStream request = new ByteArrayOutputStream();
        final ByteArrayOutputStream response = new ByteArrayOutputStream();
    }

    /** One direction: its frames, its HPACK state (each side has its own table, RFC 7541 §2.2) and a header block in progress. */
    private final class Direction implements Http2Frames.Sink {
        private final boolean client;
        private final Http2Frames frames;
        private final HpackDecoder hpack = new HpackDecoder(1 << 20, System::nanoTime);
        private final ByteArrayOutputStream block = new ByteArrayOutputStream();
        private int blockStream;

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
                case Frame.DATA -> data(f.stream(), Http2Frames.content(f));
                case Frame.RST_STREAM -> say(f.stream(), "reset by the " + (client ? "client" : "agent")
                        + (f.payload().length >= 4 ? " (HTTP/2 error " + (f.payload()[3] & 0xff) + ")" : ""));
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
            synchronized (GrpcCallView.this) {
                Call call = calls.computeIfAbsent(blockStream, s -> new Call());
                if (client && meta instanceof MetaData.Request request) {
                    call.path = request.getHttpURI().getPath();
                    call.method = METHODS.get(call.path);
                    String version = meta.getHttpFields().get("a2a-version");
                    say(blockStream, request.getMethod() + " " + call.path + "  a2a-version: "
                            + (version == null ? "(none)" : version)
                            + (call.method == null ? "  (not an rpc of lf.a2a.v1.A2AService)" : ""));
                    return;
                }
                // The agent's response headers, or its trailers (or both at once: a Trailers-Only answer).
                String status = meta.getHttpFields().get("grpc-status");
                if (status != null) {
                    say(blockStream, call.path + " status " + GrpcStatusLine.of(status, meta.getHttpFields().get("grpc-message"),
                            meta.getHttpFields().get("grpc-status-details-bin")));
                    calls.remove(blockStream);
                } else if (!client && meta instanceof MetaData.Response response && response.getStatus() != 200) {
                    say(blockStream, call.path + " HTTP status " + response.getStatus());
                }
            }
        }

        private void data(int stream, byte[] bytes) {
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
                    say(stream, (client ? "request " : "response ") + show(call, message, compressed));
                }
                buf.reset();
                buf.write(all, at, all.length - at);
            }
        }

        private String show(Call call, byte[] message, boolean compressed) {
            if (compressed) {
                return "(compressed, " + message.length + " bytes, not shown)";
            }
            if (call.method == null) {
                return "(" + message.length + " bytes of an unknown method)";
            }
            MethodDescriptor.Marshaller<?> m = client ? call.method.getRequestMarshaller() : call.method.getResponseMarshaller();
            if (!(m instanceof MethodDescriptor.PrototypeMarshaller<?> p) || !(p.getMessagePrototype() instanceof Message proto)) {
                return "(" + message.length + " bytes)";
            }
            try {
                return ProtoJson.print(proto.getParserForType().parseFrom(message));
            } catch (InvalidProtocolBufferException e) {
                // Shown as broken, not hidden: the tap exists to show traffic as it is.
                return "(" + message.length + " bytes that are not a " + proto.getDescriptorForType().getName()
                        + ": " + e.getMessage() + ")";
            }
        }
    }

    private void stop(String why) {
        if (!stopped) {
            stopped = true;
            console.accept("[#" + exchange + "] gRPC: " + why + "; the rest of this connection is forwarded, not shown");
        }
    }
}
