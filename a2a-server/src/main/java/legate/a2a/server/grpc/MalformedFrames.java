package legate.a2a.server.grpc;

import io.grpc.Status;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import legate.a2a.server.observe.ThrottledLog;

/**
 * The gRPC binding's log of requests whose gRPC framing is broken (gRPC over HTTP/2,
 * "Length-Prefixed-Message": a 5-byte prefix, a flag byte of 0 or 1 and a 4-byte length, then that
 * many bytes): a message cut short by the end of the stream, a flag byte with reserved bits set, a
 * declared length over MAX_BODY_BYTES. grpc-java's transport refuses these before any code of the
 * service runs: the caller gets {@code INTERNAL} ("Encountered end-of-stream mid-frame", "gRPC
 * frame header malformed: reserved bits not zero") or {@code RESOURCE_EXHAUSTED} ("gRPC message
 * exceeds maximum size ..."), codes the transport decides, not Legate. What this class changes is
 * the log: one line, no stack trace, at most one per interval, through the same {@link ThrottledLog}
 * as {@link MalformedRequests}.
 *
 * <p>DEFECT (issue 30): each such request logged a JUL WARNING "Exception processing message" with
 * a stack trace of some 18 lines from grpc-java's {@code NettyServerStream}, as often as a caller
 * liked. That logger is grpc-java's, named after a class it does not export, so this is a JUL
 * {@link Filter} on it: the record is turned into a throttled line and not published.
 *
 * <p>The same for a connection that is not gRPC over HTTP/2 at all (a port scanner, HTTP/1.1, a TLS
 * ClientHello to a clear-text port, a preface followed by no SETTINGS): grpc-java's
 * {@code NettyServerTransport} logged "Transport failed" with a stack trace of some 20 lines per
 * connection (DEFECT, issue 30: 40 such connections wrote 840 lines in one second).
 *
 * <p>JVM-wide, as the JUL logger is: the filter is installed once and reports to the log of the
 * listener built last (one per process in {@code legate}; tests build one after another).
 */
final class MalformedFrames implements Filter {
    /** grpc-java's {@code NettyServerStream}, as shaded in grpc-netty-shaded; its deframer's failures log here. */
    static final String TRANSPORT_LOGGER = "io.grpc.netty.shaded.io.grpc.netty.NettyServerStream";
    /** grpc-java's {@code NettyServerTransport} logs a connection's failure before or outside any call under this name. */
    static final String CONNECTION_LOGGER = "io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport.connections";
    /** What {@code NettyServerTransport.notifyTerminated} logs, with the failure as the record's thrown. */
    private static final String TRANSPORT_FAILED = "Transport failed";
    /** What {@code NettyServerStream.TransportState.deframeFailed} logs, with the failure as the record's thrown. */
    private static final String DEFRAME_FAILED = "Exception processing message";
    /** Held strongly: JUL keeps loggers weakly, and a logger collected and made again would have lost the filter. */
    private static final Logger TRANSPORT = Logger.getLogger(TRANSPORT_LOGGER);
    private static final Logger CONNECTION = Logger.getLogger(CONNECTION_LOGGER);
    private static final MalformedFrames FILTER = new MalformedFrames();

    private final AtomicReference<ThrottledLog> log = new AtomicReference<>();

    private MalformedFrames() {
    }

    /** From now on a broken frame is one line in {@code log}, within its interval, and nothing in grpc-java's log. */
    static synchronized void reportTo(ThrottledLog log) {
        FILTER.log.set(log);
        if (TRANSPORT.getFilter() != FILTER) {
            TRANSPORT.setFilter(FILTER);
        }
        if (CONNECTION.getFilter() != FILTER) {
            CONNECTION.setFilter(FILTER);
        }
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        ThrottledLog to = log.get();
        if (to == null || record.getThrown() == null) {
            return true;
        }
        if (TRANSPORT_FAILED.equals(record.getMessage())) {
            to.warn("gRPC connection closed: it is not gRPC over HTTP/2: " + firstLine(record.getThrown().getMessage()));
            return false;
        }
        if (!DEFRAME_FAILED.equals(record.getMessage())) {
            return true;
        }
        Status status = Status.fromThrowable(record.getThrown());
        to.warn("gRPC request refused (" + status.getCode() + "): its gRPC message framing is broken: "
                + firstLine(status.getDescription()));
        return false;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "(no description)";
        }
        int end = s.indexOf('\n');
        return end < 0 ? s : s.substring(0, end);
    }
}
