package legate.a2a.server.push;

import static legate.a2a.server.push.PushDeliveryTest.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DEFECT (issue 30, item 5): the attempt's timeout covered the answer's headers only, so a webhook
 * that answered 200 and then trickled its body (here a byte every 50 ms, so no read is ever idle
 * for long) held the delivery, a socket and a thread until the body ended, or forever, and the
 * task's later events were never sent. One deadline covers an attempt, body included; past it the
 * attempt fails, its connection is closed, and it is retried like any other failure (README "Push
 * notifications").
 */
class StalledWebhookTest {
    private static final Duration ATTEMPT = Duration.ofMillis(400);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void aWebhookThatTricklesItsBodyFailsTheAttemptAtItsDeadlineWhichIsRetriedAndLaterEventsArrive() throws Exception {
        ServerSocket listener = cleanup.register(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        CountDownLatch stalledClosed = new CountDownLatch(1);
        Thread.ofVirtual().start(() -> {
            boolean first = true;
            while (!listener.isClosed()) {
                try {
                    Socket s = listener.accept();
                    if (first) {
                        first = false;
                        Thread.ofVirtual().start(() -> stall(s, bodies, stalledClosed));
                    } else {
                        Thread.ofVirtual().start(() -> answer(s, bodies));
                    }
                } catch (IOException e) {
                    return;
                }
            }
        });
        PushAgent agent = new PushAgent(cleanup, PushSettings.DEFAULT
                .withAllowed(AllowedHosts.parse("127.0.0.1:" + listener.getLocalPort()))
                .withPolicy(PushPolicy.DEFAULT.withLimits(4, Duration.ofMinutes(1), 100)
                        .withBackoff(Duration.ofMillis(10), Duration.ofMillis(20)).withTimeout(ATTEMPT)));
        agent.send("steps 0", "{\"url\":\"http://127.0.0.1:" + listener.getLocalPort() + "/hook\"}", false);

        long start = System.nanoTime();
        String stalled = bodies.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(stalled).as("the first attempt").contains("\"task\"");
        // The stalled attempt is abandoned at its deadline: Legate closes the connection instead of waiting on.
        assertThat(stalledClosed.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the stalled connection is closed").isTrue();
        String retried = bodies.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(retried).as("the same event, retried").isEqualTo(stalled);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("retried soon after the deadline").isLessThan(WAIT);
        List<String> later = new ArrayList<>();
        while (later.size() < 2) {
            String next = bodies.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(next).as("the task's later events still arrive").isNotNull();
            later.add(next);
        }
        assertThat(later.get(0)).contains("\"artifactUpdate\"");
        assertThat(later.get(1)).contains("TASK_STATE_COMPLETED");
    }

    /**
     * Reads the request, answers 200 with a body of 1000 bytes, and trickles it, a byte every 50 ms:
     * never idle long enough for a read timeout, 50 s to finish. Returns once Legate closes the
     * connection (a write fails) or the body is all sent, which the test counts as not closed.
     */
    private static void stall(Socket s, BlockingQueue<String> bodies, CountDownLatch closed) {
        try (s) {
            bodies.add(readRequestBody(s.getInputStream()));
            OutputStream out = s.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            for (int sent = 0; sent < 1000; sent++) {
                out.write('x');
                out.flush();
                // The trickle's pace, not a wait for an event: the receiver is slow on purpose.
                Thread.sleep(50);
            }
            return;
        } catch (IOException e) {
            // the other side gave up on the answer and closed the connection
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        closed.countDown();
    }

    private static void answer(Socket s, BlockingQueue<String> bodies) {
        try (s) {
            InputStream in = s.getInputStream();
            while (true) {
                String body = readRequestBody(in);
                if (body == null) {
                    return;
                }
                bodies.add(body);
                s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    /** One request's body (by its Content-Length); null at the end of the connection. */
    private static String readRequestBody(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        int length = 0;
        for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).strip());
            }
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
