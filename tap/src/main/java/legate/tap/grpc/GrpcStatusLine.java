package legate.tap.grpc;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import com.google.rpc.Status;
import io.grpc.Status.Code;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A call's end as the console shows it: the grpc-status code by number and name, the
 * grpc-message (percent-decoded), and the A2A error's ErrorInfo reason from
 * grpc-status-details-bin (A2A §10.6), which is how a client must classify it.
 */
final class GrpcStatusLine {
    private GrpcStatusLine() {
    }

    static String of(String status, String message, String detailsBin) {
        StringBuilder b = new StringBuilder(status.strip());
        try {
            b.append(' ').append(Code.values()[Integer.parseInt(status.strip())]);
        } catch (RuntimeException e) {
            b.append(" (not a gRPC status code)");
        }
        if (message != null && !message.isEmpty()) {
            b.append(": ").append(percentDecoded(message));
        }
        if (detailsBin != null) {
            b.append("  ").append(reason(detailsBin));
        }
        return b.toString();
    }

    private static String reason(String detailsBin) {
        try {
            Status details = Status.parseFrom(Base64.getDecoder().decode(detailsBin.strip()));
            for (Any detail : details.getDetailsList()) {
                if (detail.is(ErrorInfo.class)) {
                    ErrorInfo info = detail.unpack(ErrorInfo.class);
                    return "ErrorInfo " + info.getReason() + " (" + info.getDomain() + ")"
                            + (info.getMetadataMap().isEmpty() ? "" : " " + info.getMetadataMap());
                }
            }
            return "(details without an ErrorInfo)";
        } catch (IllegalArgumentException | InvalidProtocolBufferException e) {
            return "(grpc-status-details-bin that is not a google.rpc.Status)";
        }
    }

    /** PROTOCOL (gRPC over HTTP/2): grpc-message is percent-encoded UTF-8. */
    private static String percentDecoded(String s) {
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
            out.write(c);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
