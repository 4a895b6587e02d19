package legate.a2a.server.edge;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import java.util.concurrent.TimeUnit;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;

/** A small agent behind a server with a given edge, and a client SSL context that trusts one CA. */
final class EdgeFixture {
    private EdgeFixture() {
    }

    /** Completes every task at once. */
    static final AgentExecutor DONE = (ctx, events) -> {
        events.task(ctx.initialTask());
        events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
        events.status(TaskState.TASK_STATE_COMPLETED, null);
    };

    static AgentServer server(ServerEdge edge, String scheme) {
        return AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", ServerConfig.DEFAULT_MAX_BODY_BYTES,
                        Duration.ofSeconds(2)).withEdge(edge),
                port -> AgentCard.newBuilder().setName("edge").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl(scheme + "://localhost:" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true).setPushNotifications(false))
                        .addDefaultInputModes("text/plain").addDefaultOutputModes("text/plain")
                        .build(),
                DONE);
    }

    /** A blocking stub on {@code channel} sending a2a-version 1.0, bounded to 10 s; the channel closed with the test. */
    static A2AServiceGrpc.A2AServiceBlockingStub stub(Cleanup cleanup, ManagedChannel channel) {
        cleanup.register(() -> {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        });
        Metadata version = new Metadata();
        version.put(GrpcMetadata.VERSION, "1.0");
        return A2AServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(version))
                .withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    /** A message saying hi. */
    static SendMessageRequest hello() {
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId("m-" + System.nanoTime())
                .setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText("hi"))).build();
    }

    static SSLContext trusting(Path caPem) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
