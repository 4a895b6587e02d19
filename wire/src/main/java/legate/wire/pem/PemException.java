package legate.wire.pem;

/** A PEM file that cannot be used, with a message a person can act on (it names the file and the fault). */
public final class PemException extends Exception {
    public PemException(String message) {
        super(message);
    }
}
