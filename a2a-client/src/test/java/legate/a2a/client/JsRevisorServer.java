package legate.a2a.client;

import java.net.URI;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.testsupport.NodeScript;
import legate.testsupport.RunningChild;

/**
 * A reference Revisor server of {@code interop/} ({@code revisor-server.mjs}, or {@code revisor-rest-server.mjs}
 * for the SDK's REST handler), built on @a2a-js/sdk 1.2.0, run
 * as a real Node.js child process on a free loopback port. A missing Node.js fails the test with
 * what to install; interop is the point, so it is never skipped.
 */
final class JsRevisorServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    // revisor-server.mjs prints exactly this line once it accepts requests.
    private static final Pattern LISTENING = Pattern.compile("^listening (\\d+)$");

    private final RunningChild process;
    private final int port;

    private JsRevisorServer(RunningChild process, int port) {
        this.process = process;
        this.port = port;
    }

    static JsRevisorServer start(Duration stepDelay) {
        return start("revisor-server.mjs", stepDelay, false);
    }

    /** {@code script}: revisor-server.mjs (JSON-RPC) or revisor-rest-server.mjs (HTTP+JSON first, then JSON-RPC). */
    static JsRevisorServer start(String script, Duration stepDelay) {
        return start(script, stepDelay, false);
    }

    /** @param grpc also serve the SDK's gRPC service (@a2a-js/sdk/server/grpc), first in the card */
    static JsRevisorServer start(Duration stepDelay, boolean grpc) {
        return start("revisor-server.mjs", stepDelay, grpc);
    }

    private static JsRevisorServer start(String script, Duration stepDelay, boolean grpc) {
        RunningChild process = NodeScript.of(script)
                .env("PORT", "0").env("STEP_DELAY_MS", Long.toString(stepDelay.toMillis()))
                .env("GRPC", Boolean.toString(grpc)).start();
        try {
            Matcher m = process.awaitLine(LISTENING, START_TIMEOUT);
            return new JsRevisorServer(process, Integer.parseInt(m.group(1)));
        } catch (AssertionError e) {
            process.close();
            throw e;
        }
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** Stops the child: SIGTERM, which the script handles, then SIGKILL if it lingers. */
    @Override
    public void close() {
        process.close();
    }
}
