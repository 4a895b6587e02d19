package legate.tap.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import legate.tap.http.MalformedMessage.Fault;

/**
 * Reads the request or response heads arriving on one connection (RFC 9112 §2-5) strictly: whatever
 * another HTTP parser might read differently is refused, so the tap and the agent can never disagree
 * about where a message starts or ends. Bounded by the {@link WireInput}'s buffer: a head must fit in
 * it whole. What it refuses names the input's {@link Sender}.
 *
 * <p>Lines end with CRLF; a bare LF is accepted as a line end (RFC 9112 §2.2 allows it) and a bare
 * CR anywhere is refused. Field values keep their bytes (read as ISO-8859-1). One parser per
 * connection, used by the connection's thread.
 */
public final class HeadParser {
    // PROTOCOL (RFC 9112 §2.2): a server should ignore at least one empty line before a request line
    // (some clients send a CRLF after a body); a few are forgiven, an endless run of them is not.
    private static final int MAX_LEADING_BLANK_LINES = 4;

    private final WireInput in;

    public HeadParser(WireInput in) {
        this.in = in;
    }

    /**
     * The next request head, or null when the client ended the connection before sending a byte of one.
     *
     * @throws MalformedMessage when the head breaks HTTP/1.1 or is over the input's bound
     */
    public RequestHead request() throws IOException {
        RequestHead head = head(true, this::requestLine);
        if (head != null) {
            checkHost(head);
        }
        return head;
    }

    /**
     * The next response head, or null when the connection ended before a byte of one arrived.
     *
     * @throws MalformedMessage when the head breaks HTTP/1.1 or is over the input's bound
     */
    public ResponseHead response() throws IOException {
        return head(false, this::statusLine);
    }

    /** How the first line of a head is read, given its bounds and the fields that follow it. */
    private interface FirstLine<T> {
        T read(byte[] b, int from, int to, List<Field> fields) throws MalformedMessage;
    }

    private <T> T head(boolean request, FirstLine<T> firstLine) throws IOException {
        // PROTOCOL (RFC 9112 §2.2): a server ignores empty lines before a request line; a response has no such leeway.
        int length = headLength(request);
        if (length < 0) {
            return null;
        }
        byte[] b = in.array();
        int start = in.position();
        int end = start + length;
        in.skip(length);
        int lineEnd = lineEnd(b, start, end);
        return firstLine.read(b, start, lineEnd, fields(b, next(b, lineEnd), end));
    }

    /**
     * How many buffered bytes the head takes, its closing blank line included, waiting for more
     * bytes as long as it has not ended; -1 when the stream ends before a byte of a head.
     */
    private int headLength(boolean skipLeadingBlankLines) throws IOException {
        int scanned = 0;
        int lineStart = 0;
        int blankLines = 0;
        while (true) {
            int p = in.position();
            int lf = in.indexOfLf(p + scanned);
            if (lf < 0) {
                scanned = in.buffered();
                if (in.fill() < 0) {
                    if (in.buffered() == 0) {
                        return -1;
                    }
                    throw invalid("the connection ended in the middle of a head");
                }
                continue;
            }
            int rel = lf - p;
            int lineLength = rel - lineStart;
            boolean blank = lineLength == 0 || (lineLength == 1 && in.array()[p + lineStart] == '\r');
            if (!blank) {
                lineStart = rel + 1;
                scanned = rel + 1;
                continue;
            }
            if (lineStart > 0) {
                return rel + 1;
            }
            if (!skipLeadingBlankLines || ++blankLines > MAX_LEADING_BLANK_LINES) {
                throw invalid("empty lines where a start line belongs");
            }
            in.skip(rel + 1);
            scanned = 0;
        }
    }

    /** The end of the line starting at {@code from}: its CR if it ends in CRLF, else its LF. */
    private int lineEnd(byte[] b, int from, int end) throws MalformedMessage {
        for (int i = from; i < end; i++) {
            if (b[i] == '\n') {
                return i > from && b[i - 1] == '\r' ? i - 1 : i;
            }
            if (b[i] == '\r' && (i + 1 >= end || b[i + 1] != '\n')) {
                // PROTOCOL (RFC 9112 §2.2): a bare CR must be refused or replaced; refused, so nothing
                // downstream can read it as a line end.
                throw invalid("a bare CR in the head");
            }
        }
        throw invalid("a head line without an end");
    }

    /** The start of the line after the one ending at {@code lineEnd}. */
    private static int next(byte[] b, int lineEnd) {
        return b[lineEnd] == '\r' ? lineEnd + 2 : lineEnd + 1;
    }

    private List<Field> fields(byte[] b, int from, int end) throws MalformedMessage {
        List<Field> fields = new ArrayList<>(12);
        int line = from;
        while (true) {
            int lineEnd = lineEnd(b, line, end);
            if (lineEnd == line) {
                return fields;
            }
            fields.add(field(b, line, lineEnd));
            line = next(b, lineEnd);
        }
    }

    private Field field(byte[] b, int from, int to) throws MalformedMessage {
        if (b[from] == ' ' || b[from] == '\t') {
            // PROTOCOL (RFC 9112 §5.2): obsolete line folding may be refused with 400; a proxy that
            // passed it on would send a value its next hop reads differently.
            throw invalid("a folded header line (obsolete line folding)");
        }
        int colon = from;
        while (colon < to && isTchar(b[colon])) {
            colon++;
        }
        if (colon == to || b[colon] != ':') {
            if (colon < to && (b[colon] == ' ' || b[colon] == '\t')) {
                // PROTOCOL (RFC 9112 §5.1): whitespace between a field name and the colon must be
                // refused with 400; it has been used to smuggle a second request past proxies.
                throw invalid("whitespace between a header name and its colon");
            }
            throw invalid("a header line that is not name: value");
        }
        if (colon == from) {
            throw invalid("a header line without a name");
        }
        String name = latin1(b, from, colon);
        int start = colon + 1;
        int end = to;
        while (start < end && (b[start] == ' ' || b[start] == '\t')) {
            start++;
        }
        while (end > start && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
            end--;
        }
        for (int i = start; i < end; i++) {
            int c = b[i] & 0xff;
            // PROTOCOL (RFC 9110 §5.5): a value holds visible characters, spaces, tabs and obs-text;
            // NUL and the other control characters are refused, not passed on.
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw invalid("a control character in the value of " + name);
            }
        }
        return new Field(name, latin1(b, start, end));
    }

    private RequestHead requestLine(byte[] b, int from, int to, List<Field> fields) throws MalformedMessage {
        int sp1 = from;
        while (sp1 < to && isTchar(b[sp1])) {
            sp1++;
        }
        if (sp1 == from || sp1 == to || b[sp1] != ' ') {
            throw invalid("a request line that does not start with a method and one space");
        }
        int sp2 = sp1 + 1;
        while (sp2 < to && b[sp2] > ' ' && b[sp2] < 0x7f) {
            sp2++;
        }
        if (sp2 == sp1 + 1 || sp2 == to || b[sp2] != ' ') {
            throw invalid("a request target that is empty or holds a space, a control or a non-ASCII character");
        }
        String version = version(b, sp2 + 1, to);
        String method = method(b, from, sp1);
        return new RequestHead(method, target(method, latin1(b, sp1 + 1, sp2)), version, fields);
    }

    private ResponseHead statusLine(byte[] b, int from, int to, List<Field> fields) throws MalformedMessage {
        int sp = from;
        while (sp < to && b[sp] != ' ') {
            sp++;
        }
        String version = version(b, from, sp);
        if (sp + 4 > to || !isDigit(b[sp + 1]) || !isDigit(b[sp + 2]) || !isDigit(b[sp + 3])
                || (sp + 4 < to && b[sp + 4] != ' ')) {
            throw invalid("a status line without a three-digit status");
        }
        int status = (b[sp + 1] - '0') * 100 + (b[sp + 2] - '0') * 10 + (b[sp + 3] - '0');
        if (status < 100 || status > 599) {
            throw invalid("status " + status + " is outside 100-599");
        }
        // The reason phrase is optional; the space before it is not, but a missing one does no harm.
        int reasonStart = Math.min(sp + 5, to);
        for (int i = reasonStart; i < to; i++) {
            int c = b[i] & 0xff;
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw invalid("a control character in the reason phrase");
            }
        }
        return new ResponseHead(version, status, latin1(b, reasonStart, to), fields);
    }

    /** HTTP/1.1 or HTTP/1.0; another major version is unsupported (RFC 9110 §15.6.6), anything else invalid. */
    private String version(byte[] b, int from, int to) throws MalformedMessage {
        if (to - from == 8 && b[from] == 'H' && b[from + 1] == 'T' && b[from + 2] == 'T' && b[from + 3] == 'P'
                && b[from + 4] == '/' && isDigit(b[from + 5]) && b[from + 6] == '.' && isDigit(b[from + 7])) {
            if (b[from + 5] == '1') {
                // PROTOCOL (RFC 9110 §2.5): a higher minor version is read as the highest one the
                // recipient speaks. DEFECT: HTTP/1.2 was refused with 505 as if it were HTTP/2.
                return b[from + 7] == '0' ? "HTTP/1.0" : "HTTP/1.1";
            }
            throw new MalformedMessage(in.sender(), Fault.UNSUPPORTED_VERSION, "HTTP version " + latin1(b, from + 5, to)
                    + " (the tap speaks HTTP/1.1)");
        }
        throw invalid("no HTTP version where the start line ends");
    }

    private static String method(byte[] b, int from, int to) {
        // The two methods A2A uses, without a new string per request.
        if (to - from == 4 && b[from] == 'P' && b[from + 1] == 'O' && b[from + 2] == 'S' && b[from + 3] == 'T') {
            return "POST";
        }
        if (to - from == 3 && b[from] == 'G' && b[from + 1] == 'E' && b[from + 2] == 'T') {
            return "GET";
        }
        return latin1(b, from, to);
    }

    /**
     * The target as the agent is to get it: origin form (a path and query) as it came; absolute form
     * reduced to its path and query, because the tap's own connection names the agent (RFC 9112
     * §3.2.2 obliges a server to accept it); {@code *} only for OPTIONS (§3.2.4).
     */
    private String target(String method, String target) throws MalformedMessage {
        if (target.indexOf('#') >= 0) {
            throw invalid("a fragment (#) in the request target");
        }
        if (target.charAt(0) == '/') {
            return target;
        }
        if (target.equals("*")) {
            if (method.equals("OPTIONS")) {
                return target;
            }
            throw invalid("the target * is for OPTIONS only");
        }
        int scheme = target.regionMatches(true, 0, "http://", 0, 7) ? 7
                : target.regionMatches(true, 0, "https://", 0, 8) ? 8 : -1;
        if (scheme < 0) {
            throw invalid("a request target that is neither a path nor an http(s) URL");
        }
        for (int i = scheme; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == '/') {
                return target.substring(i);
            }
            if (c == '?') {
                return "/" + target.substring(i);
            }
        }
        return "/";
    }

    /** PROTOCOL (RFC 9112 §3.2): an HTTP/1.1 request has exactly one Host line, any request at most one. */
    private void checkHost(RequestHead head) throws MalformedMessage {
        int hosts = Fields.count(head.fields(), "Host");
        if (hosts > 1) {
            throw invalid("more than one Host header");
        }
        if (hosts == 0 && head.isHttp11()) {
            throw invalid("an HTTP/1.1 request without a Host header");
        }
    }

    private MalformedMessage invalid(String reason) {
        return new MalformedMessage(in.sender(), Fault.INVALID, reason);
    }

    /** A token character (RFC 9110 §5.6.2): the characters of methods and field names. */
    private static boolean isTchar(byte c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c)) {
            return true;
        }
        return switch (c) {
            case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~' -> true;
            default -> false;
        };
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static String latin1(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }
}
