package legate.a2a.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.observe.ServerMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gRPC listener closes a connection that has had no call for its idle timeout, as the HTTP
 * listener does (README "Limits", open connections). DEFECT (issue 30): grpc-java keeps a connection
 * with no call open for good, so a caller could hold any number of them at no cost to itself.
 */
class GrpcIdleConnectionTest {
    private GrpcListener listener;

    @AfterEach
    void stop() throws InterruptedException {
        if (listener != null) {
            listener.stop();
        }
    }

    @Test
    void aConnectionWithNoCallIsClosedAfterTheIdleTimeout() throws Exception {
        listener = new GrpcListener("127.0.0.1", 0, 1 << 16, CallerAuthentication.NONE, null, null, new ServerMetrics(),
                new PeerForwarding(), Duration.ofMillis(200));
        int port = listener.start();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            // PROTOCOL (RFC 9113 §3.4): the client preface, then an empty SETTINGS frame; no stream is ever opened.
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            long read = 0;
            try {
                int n;
                // Bounded: the server's SETTINGS, its ack, a GOAWAY, then the end of the connection.
                while ((n = in.read(buffer)) != -1) {
                    read += n;
                    assertThat(read).as("a few frames, not a stream of them").isLessThan(1 << 16);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the idle connection was still open 10 s later (idle timeout 200 ms)", e);
            }
            assertThat(read).as("the server spoke HTTP/2 before it closed").isPositive();
        }
    }
}
