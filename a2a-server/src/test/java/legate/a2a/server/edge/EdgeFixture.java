package legate.a2a.server.edge;

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
