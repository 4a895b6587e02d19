package legate.tap.show;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import legate.tap.show.ExchangeEvent.Header;

/**
 * A gRPC call's status as its trailers carry it (gRPC over HTTP/2): {@code grpc-status}, a code
 * from 0 to 16; {@code grpc-message}, percent-encoded UTF-8; and {@code grpc-status-details-bin},
 * which the tap's gRPC view shows as the ProtoJSON of its google.rpc.Status, where A2A puts the
 * error's ErrorInfo (A2A §10.6).
 *
 * @param code the grpc-status as sent (not always a number, when the sender is broken)
 * @param message the grpc-message, decoded; null when absent
 * @param details the grpc-status-details-bin as the tap shows it; null when absent
 */
public record GrpcStatus(String code, String message, String details) {
    public static final String STATUS = "grpc-status";
    public static final String MESSAGE = "grpc-message";
    public static final String DETAILS = "grpc-status-details-bin";

    /** The gRPC codes' names, by number (google.rpc.Code). */
    private static final List<String> NAMES = List.of("OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT",
            "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
            "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
            "UNAUTHENTICATED");

    /** The status among these fields, or null when they hold no grpc-status (not a gRPC call's end). */
    public static GrpcStatus in(List<Header> fields) {
        String code = null;
        String message = null;
        String details = null;
        for (Header h : fields) {
            if (h.name().equalsIgnoreCase(STATUS)) {
                code = h.value().strip();
            } else if (h.name().equalsIgnoreCase(MESSAGE)) {
                message = percentDecoded(h.value());
            } else if (h.name().equalsIgnoreCase(DETAILS)) {
                details = h.value();
            }
        }
        return code == null ? null : new GrpcStatus(code, message, details);
    }

    /** The code's name ({@code NOT_FOUND}), or null when the code is none of gRPC's. */
    public String name() {
        try {
            int n = Integer.parseInt(code);
            return n >= 0 && n < NAMES.size() ? NAMES.get(n) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public boolean ok() {
        return "0".equals(code);
    }

    /** {@code 5 NOT_FOUND: Task not found: x}: the code by number and name, and the message. */
    public String summary() {
        String name = name();
        return code + " " + (name == null ? "(not a gRPC status code)" : name)
                + (message == null || message.isEmpty() ? "" : ": " + message);
    }

    /** PROTOCOL (gRPC over HTTP/2): grpc-message is percent-encoded UTF-8. */
    private static String percentDecoded(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                try {
                    out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                    continue;
                } catch (NumberFormatException e) {
                    // not an escape: kept as it is
                }
            }
            out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
