package legate.tap.http;

import java.util.List;
import legate.tap.http.MalformedMessage.Fault;

/**
 * How a message's body is delimited on its connection (RFC 9112 §6.3). It belongs to the connection,
 * not to the message: the tap reads each side's framing and frames the body anew for the other side.
 */
public sealed interface Framing {
    /** No body at all, whatever the head says: a bodiless request, HEAD's answer, 1xx, 204, 304. */
    record None() implements Framing {
    }

    /** Exactly this many bytes (Content-Length). */
    record Length(long bytes) implements Framing {
    }

    /** Chunked transfer coding (RFC 9112 §7.1). */
    record Chunked() implements Framing {
    }

    /** A response body that ends when the server closes the connection. */
    record UntilClose() implements Framing {
    }

    Framing NONE = new None();
    Framing CHUNKED = new Chunked();
    Framing UNTIL_CLOSE = new UntilClose();

    /** A request's framing; anything two parsers could read two ways is refused (RFC 9112 §6.1, §6.3). */
    static Framing ofRequest(RequestHead head) throws MalformedMessage {
        List<Field> fields = head.fields();
        if (Fields.count(fields, "Transfer-Encoding") > 0) {
            // PROTOCOL (RFC 9112 §6.1): Transfer-Encoding in an HTTP/1.0 message means faulty framing.
            if (!head.isHttp11()) {
                throw new MalformedMessage(Sender.CLIENT, Fault.INVALID, "Transfer-Encoding in an HTTP/1.0 request");
            }
            // PROTOCOL (RFC 9112 §6.3): both headers at once is how requests are smuggled past a proxy
            // that reads one and a server that reads the other; refused rather than repaired.
            if (Fields.count(fields, "Content-Length") > 0) {
                throw new MalformedMessage(Sender.CLIENT, Fault.INVALID, "both Transfer-Encoding and Content-Length");
            }
            List<String> codings = Fields.tokens(fields, "Transfer-Encoding");
            if (codings.isEmpty() || !codings.getLast().equalsIgnoreCase("chunked")) {
                // PROTOCOL (RFC 9112 §6.3): without chunked last, a request's length cannot be known: 400.
                throw new MalformedMessage(Sender.CLIENT, Fault.INVALID,
                        "a Transfer-Encoding whose last coding is not chunked");
            }
            if (codings.size() > 1) {
                // PROTOCOL (RFC 9112 §6.1): a transfer coding the server does not understand is 501.
                throw new MalformedMessage(Sender.CLIENT, Fault.UNSUPPORTED_CODING,
                        "the transfer coding " + codings.getFirst() + " (the tap forwards chunked only)");
            }
            return CHUNKED;
        }
        long length = contentLength(fields, Sender.CLIENT);
        return length < 0 ? NONE : new Length(length);
    }

    /**
     * A response's framing.
     *
     * @param headRequest whether it answers HEAD, whose response has no body whatever it says
     */
    static Framing ofResponse(ResponseHead head, boolean headRequest) throws MalformedMessage {
        int status = head.status();
        if (headRequest || status < 200 || status == 204 || status == 304) {
            return NONE;
        }
        List<Field> fields = head.fields();
        if (Fields.count(fields, "Transfer-Encoding") > 0) {
            List<String> codings = Fields.tokens(fields, "Transfer-Encoding");
            if (codings.size() != 1 || !codings.getFirst().equalsIgnoreCase("chunked")) {
                // Another coding would have to reach the client as it is, which the tap does not do.
                throw new MalformedMessage(Sender.SERVER, Fault.UNSUPPORTED_CODING,
                        "the transfer coding " + String.join(", ", codings) + " (the tap relays chunked only)");
            }
            // PROTOCOL (RFC 9112 §6.3): Transfer-Encoding overrides a Content-Length, which the relay drops.
            return CHUNKED;
        }
        long length = contentLength(fields, Sender.SERVER);
        return length < 0 ? UNTIL_CLOSE : new Length(length);
    }

    /**
     * The Content-Length, or -1 without one. PROTOCOL (RFC 9112 §6.3): several equal values count as
     * one; anything else (a sign, differing values, a number too big) is an unrecoverable framing error.
     */
    private static long contentLength(List<Field> fields, Sender sender) throws MalformedMessage {
        long length = -1;
        for (Field f : fields) {
            if (!f.is("Content-Length")) {
                continue;
            }
            for (String element : f.value().split(",", -1)) {
                long n = digits(element.strip());
                if (n < 0 || (length >= 0 && n != length)) {
                    throw new MalformedMessage(sender, Fault.INVALID, "an invalid Content-Length (" + f.value() + ")");
                }
                length = n;
            }
        }
        return length;
    }

    private static long digits(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
