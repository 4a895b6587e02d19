package legate.a2a.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    private static final byte SETTINGS = 4;
    private static final byte PING = 6;
    private static final int GOAWAY = 7;
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
            out.write(new byte[] {0, 0, 0, SETTINGS, 0, 0, 0, 0, 0});
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            List<Integer> frames = new ArrayList<>();
            boolean closed = false;
            try {
                // Bounded: the server's SETTINGS, a GOAWAY and its PING, then the end of the connection.
                for (int i = 0; i < 100; i++) {
                    byte[] header = new byte[9];
                    int first = in.read();
                    if (first == -1) {
                        closed = true;
                        break;
                    }
                    header[0] = (byte) first;
                    in.readFully(header, 1, 8);
                    int length = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
                    int type = header[3];
                    boolean ack = (header[4] & 1) != 0;
                    byte[] payload = new byte[length];
                    in.readFully(payload);
                    frames.add(type);
                    if (type == SETTINGS && !ack) {
                        out.write(new byte[] {0, 0, 0, SETTINGS, 1, 0, 0, 0, 0});
                    } else if (type == PING && !ack) {
                        // A graceful GOAWAY waits for the answer to its PING (or 10 s) before it closes.
                        out.write(new byte[] {0, 0, 8, PING, 1, 0, 0, 0, 0});
                        out.write(payload);
                    }
                    out.flush();
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the idle connection was still open 10 s later (frames read: " + frames + ")", e);
            }
            assertThat(closed).as("the server closed the connection; frames read: " + frames).isTrue();
            assertThat(frames).as("the server said GOAWAY before it closed").contains(GOAWAY);
        }
    }
}
