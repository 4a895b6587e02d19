package legate.tap.http;

/**
 * Who sent the bytes an HTTP/1.1 reader reads: a client sends requests, a server sends responses
 * (for the tap, the server is the agent). Each {@link WireInput} is told whose bytes it holds, so a
 * message the codec refuses names its sender ({@link MalformedMessage#sender()}), and the answer is
 * chosen by whoever serves the connection, not by the codec.
 */
public enum Sender {
    /** The side that sends requests. */
    CLIENT,
    /** The side that answers them. */
    SERVER
}
