package legate.a2a.server.grpc;

import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.TaskState;

/**
 * A loopback server serving gRPC beside JSON-RPC, in front of an executor whose text decides the
 * turn ("ask": INPUT_REQUIRED, "hold": WORKING until {@link #release()} or a cancel, else COMPLETED), and
 * grpc-java channels to it: what the gRPC tests observe as a client.
 */
final class GrpcAgent {
    final AgentServer server;
    final int port;
    final CountDownLatch held = new CountDownLatch(1);
    private final Cleanup cleanup;

    GrpcAgent(Cleanup cleanup, ServerConfig config) throws Exception {
        this.cleanup = cleanup;
        AgentExecutor executor = new AgentExecutor() {
            @Override
            public void execute(RequestContext ctx, EventSink events) throws Exception {
                events.task(ctx.initialTask());
                String text = ctx.message().getPartsCount() == 0 ? "" : ctx.message().getParts(0).getText();
                if (text.equals("ask") && ctx.storedTask() == null) {
                    events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("which one?"));
                    return;
                }
                events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
                if (text.equals("hold")) {
                    ctx.cancel().onCancel(held::countDown);
                    held.await(20, TimeUnit.SECONDS);
                }
                events.status(ctx.cancel().isRequested() ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_COMPLETED,
                        null);
            }
        };
        this.server = AgentServer.create(config,
                port -> AgentCard.newBuilder().setName("grpc").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
                        .build(),
                executor);
        this.port = cleanup.start("the gRPC agent", server, AgentServer::start, AgentServer::openStreams);
    }

    void release() {
        held.countDown();
    }

    /** A blocking stub over a fresh channel sending {@code metadata} on every call (a2a-version 1.0 unless given). */
    A2AServiceGrpc.A2AServiceBlockingStub stub(Map<String, String> metadata) {
        Metadata headers = new Metadata();
        if (!metadata.containsKey("a2a-version")) {
            headers.put(GrpcMetadata.VERSION, "1.0");
        }
        metadata.forEach((k, v) -> headers.put(GrpcMetadata.ascii(k), v));
        ClientInterceptor stamp = MetadataUtils.newAttachHeadersInterceptor(headers);
        return A2AServiceGrpc.newBlockingStub(ClientInterceptors.intercept(channel(), stamp));
    }

    /** A blocking stub (a2a-version 1.0) whose calls name {@code authority} as HTTP/2 {@code :authority}. */
    A2AServiceGrpc.A2AServiceBlockingStub stubNaming(String authority) {
        Metadata headers = new Metadata();
        headers.put(GrpcMetadata.VERSION, "1.0");
        return A2AServiceGrpc.newBlockingStub(ClientInterceptors.intercept(channel(authority),
                MetadataUtils.newAttachHeadersInterceptor(headers)));
    }

    A2AServiceGrpc.A2AServiceBlockingStub stub() {
        return stub(Map.of());
    }

    /** A plain-text channel to the gRPC port, shut down after the test. */
    ManagedChannel channel() {
        return channel(null);
    }

    /** The same, sending {@code authority} as HTTP/2 {@code :authority} (null: the address dialled, 127.0.0.1:port). */
    ManagedChannel channel(String authority) {
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext();
        if (authority != null) {
            builder.overrideAuthority(authority);
        }
        ManagedChannel channel = builder.build();
        cleanup.register(() -> {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        });
        return channel;
    }

    static Message message(String text) {
        return Message.newBuilder().setMessageId("m-" + System.nanoTime()).setRole(Role.ROLE_USER)
                .addParts(Part.newBuilder().setText(text)).build();
    }
}
