package legate.a2a.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import legate.a2a.model.NestingLimit;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import org.eclipse.jetty.logging.JettyLogger;
import org.eclipse.jetty.logging.StdErrAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * Request bytes that are not valid protobuf, sent by a real grpc-java client over loopback with a
 * byte-array marshaller, as a hostile or broken peer sends them.
 *
 * <p>DEFECT (issue 30, defect 6): invalid UTF-8 in a string field, or messages nested past
 * protobuf's limit of 100, were answered UNKNOWN "Application error processing RPC", and each
 * request logged a SEVERE stack trace of some 30 lines.
 */
class GrpcMalformedRequestTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private GrpcAgent agent;
    private Channel channel;
    /** What grpc-java logs through java.util.logging: where the SEVERE traces went. */
    private final List<LogRecord> grpcLog = new CopyOnWriteArrayList<>();
    private final Handler grpcHandler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            grpcLog.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    /** What Legate logs (SLF4J, Jetty's logger in tests). */
    private final ByteArrayOutputStream legateLog = new ByteArrayOutputStream();
    private StdErrAppender appender;
    private PrintStream stderr;

    @BeforeEach
    void start() throws Exception {
        Logger.getLogger("io.grpc").addHandler(grpcHandler);
        appender = (StdErrAppender) ((JettyLogger) LoggerFactory.getLogger(MalformedRequests.class)).getAppender();
        stderr = appender.getStream();
        appender.setStream(new PrintStream(legateLog, true, StandardCharsets.UTF_8));
        agent = new GrpcAgent(cleanup, ServerConfig.loopback(0));
        Metadata headers = new Metadata();
        headers.put(GrpcMetadata.VERSION, "1.0");
        channel = ClientInterceptors.intercept(agent.channel(), MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    @AfterEach
    void restoreLogs() {
        Logger.getLogger("io.grpc").removeHandler(grpcHandler);
        appender.setStream(stderr);
    }

    @Test
    void invalidUtf8InAStringFieldIsInvalidArgumentSayingSo() {
        // GetTaskRequest.id (field 1, a string): 0xC3 0x28 is no UTF-8.
        StatusRuntimeException refused = call(A2AServiceGrpc.getGetTaskMethod(), new byte[] {0x0A, 0x02, (byte) 0xC3, 0x28});

        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(refused.getStatus().getDescription()).contains("lf.a2a.v1.GetTaskRequest").contains("UTF-8");
    }

    @Test
    void messagesNestedPastProtobufsLimitAreInvalidArgumentNamingTheLimit() {
        byte[] deep = request(nested(40)).toByteArray();

        StatusRuntimeException refused = call(A2AServiceGrpc.getSendMessageMethod(), deep);

        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(refused.getStatus().getDescription()).contains("lf.a2a.v1.SendMessageRequest")
                .contains("100 levels").contains(NestingLimit.MAX_DEPTH + " levels");
    }

    // The limit itself (issue 30, defect 1), where protobuf still parses the request: refused by the
    // handler every binding shares, before anything is stored.
    @Test
    void metadataOneLevelPastTheNestingLimitIsInvalidArgumentNamingTheLimit() {
        byte[] past = request(nested(NestingLimit.MAX_DEPTH + 1)).toByteArray();

        StatusRuntimeException refused = call(A2AServiceGrpc.getSendMessageMethod(), past);

        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(refused.getStatus().getDescription()).contains("message.metadata")
                .contains("at most " + NestingLimit.MAX_DEPTH + " levels");
    }

    @Test
    void manyMalformedRequestsLogOneLineAndNoStackTrace() {
        for (int i = 0; i < 40; i++) {
            StatusRuntimeException refused = call(A2AServiceGrpc.getGetTaskMethod(),
                    new byte[] {0x0A, 0x02, (byte) 0xC3, 0x28});
            assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        }
        // Still serving: a well-formed call after the flood is answered.
        assertThat(agent.stub().sendMessage(request(Struct.getDefaultInstance())).getTask().getId()).isNotEmpty();

        assertThat(grpcLog).filteredOn(r -> r.getLevel().intValue() >= Level.WARNING.intValue()).isEmpty();
        List<String> lines = legateLog.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.contains("not a valid")).toList();
        assertThat(lines).hasSize(1);
        assertThat(legateLog.toString(StandardCharsets.UTF_8)).doesNotContain("\tat ");
    }

    // DEFECT (issue 30): a request whose gRPC framing is broken never reaches the service; grpc-java's
    // transport logged each one as a JUL WARNING with a stack trace of some 18 lines, as often as a
    // caller liked. The codes are the transport's: INTERNAL for a cut or flagged frame, RESOURCE_EXHAUSTED
    // for a declared length over the limit.
    @Test
    void manyRequestsWithBrokenFramingLogOneLineAndNoStackTraceAndTheServerKeepsServing() throws Exception {
        String path = "/" + A2AServiceGrpc.getGetTaskMethod().getFullMethodName();
        byte[] cut = {0, 0, 0, 0, 0x10, 'a', 'b', 'c'};
        byte[] reservedBits = {0x02, 0, 0, 0, 1, 0};
        byte[] huge = {0, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        try (RawHttp2 h2 = new RawHttp2(agent.server.grpcPort())) {
            for (int i = 0; i < 40; i++) {
                switch (i % 3) {
                    case 0 -> assertThat(h2.call(path, cut)).as("call " + i).startsWith("13 ").contains("end-of-stream");
                    case 1 -> assertThat(h2.call(path, reservedBits)).as("call " + i).startsWith("13 ")
                            .contains("reserved bits");
                    default -> assertThat(h2.call(path, huge)).as("call " + i).startsWith("8 ");
                }
            }
        }
        assertThat(agent.stub().sendMessage(request(Struct.getDefaultInstance())).getTask().getId()).isNotEmpty();

        assertThat(grpcLog).filteredOn(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                .extracting(LogRecord::getMessage).isEmpty();
        String logged = legateLog.toString(StandardCharsets.UTF_8);
        assertThat(logged.lines().filter(l -> l.contains("framing is broken")).toList()).hasSize(1);
        assertThat(logged).doesNotContain("\tat ");
    }

    // DEFECT (issue 30): a connection that is not gRPC over HTTP/2 (a scanner, HTTP/1.1, bytes of
    // nothing) logged "Transport failed" with a stack trace of some 20 lines, per connection.
    @Test
    void manyConnectionsThatAreNotHttp2LogOneLineAndNoStackTraceAndTheServerKeepsServing() throws Exception {
        byte[][] garbage = {"GARBAGE\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)};
        for (int i = 0; i < 20; i++) {
            try (Socket s = new Socket("127.0.0.1", agent.server.grpcPort())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(garbage[i % 2]);
                s.getOutputStream().flush();
                // The server closes the connection; read to its end.
                while (s.getInputStream().read(new byte[256]) >= 0) {
                    // discard
                }
            } catch (SocketException reset) {
                // a reset is the server closing too
            }
        }
        assertThat(agent.stub().sendMessage(request(Struct.getDefaultInstance())).getTask().getId()).isNotEmpty();
        // The transport logs after it has closed the connection: wait, bounded, for the line.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!legateLog.toString(StandardCharsets.UTF_8).contains("not gRPC over HTTP/2")
                && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        String logged = legateLog.toString(StandardCharsets.UTF_8);
        assertThat(logged.lines().filter(l -> l.contains("not gRPC over HTTP/2")).toList()).hasSize(1);
        assertThat(logged).doesNotContain("\tat ");
        assertThat(grpcLog).filteredOn(r -> r.getLevel().intValue() >= Level.INFO.intValue())
                .extracting(LogRecord::getMessage).doesNotContain("Transport failed");
    }

    private StatusRuntimeException call(MethodDescriptor<?, ?> method, byte[] body) {
        MethodDescriptor<byte[], byte[]> raw = MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(method.getType())
                .setFullMethodName(method.getFullMethodName())
                .setRequestMarshaller(Bytes.INSTANCE)
                .setResponseMarshaller(Bytes.INSTANCE)
                .build();
        return catchThrowableOfType(StatusRuntimeException.class, () -> {
            if (method.getType() == MethodDescriptor.MethodType.UNARY) {
                ClientCalls.blockingUnaryCall(channel, raw, CallOptions.DEFAULT, body);
            } else {
                ClientCalls.blockingServerStreamingCall(channel, raw, CallOptions.DEFAULT, body).next();
            }
        });
    }

    private static SendMessageRequest request(Struct metadata) {
        Message.Builder m = Message.newBuilder().setMessageId("m-" + System.nanoTime()).setRole(Role.ROLE_USER)
                .addParts(Part.newBuilder().setText("hello"));
        if (!metadata.getFieldsMap().isEmpty()) {
            m.setMetadata(metadata);
        }
        return SendMessageRequest.newBuilder().setMessage(m).build();
    }

    /** {"k":{"k":...{"k":"x"}}}: {@code levels} objects, one inside the other. */
    private static Struct nested(int levels) {
        Value v = Value.newBuilder().setStringValue("x").build();
        for (int i = 1; i < levels; i++) {
            v = Value.newBuilder().setStructValue(Struct.newBuilder().putFields("k", v)).build();
        }
        return Struct.newBuilder().putFields("k", v).build();
    }

    /** Bytes as they are: the client sends exactly what the test wrote. */
    private enum Bytes implements MethodDescriptor.Marshaller<byte[]> {
        INSTANCE;

        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
