package legate.a2a.server;

/**
 * Who sent a request, as the HTTP edge authenticated it (A2A §7): the owner of every task and
 * conversation the request creates. A server without an authentication scheme sees every caller
 * as the one {@link #ANONYMOUS} principal.
 *
 * <p>Names share one namespace whatever scheme proved them: a tokens-file entry {@code alice} and a
 * JWT whose {@code sub} is {@code alice} are the same owner.
 */
public sealed interface Principal {
    /** The caller of a server that authenticates no one. */
    Principal ANONYMOUS = new Anonymous();

    /** How a store records this principal as an owner: its name, or "" for {@link #ANONYMOUS}. */
    String owner();

    /** The caller of a server that authenticates no one. */
    record Anonymous() implements Principal {
        @Override
        public String owner() {
            return "";
        }

        @Override
        public String toString() {
            return "anonymous";
        }
    }

    /** A caller that proved a name with a credential. */
    record Named(String name) implements Principal {
        public Named {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("a principal needs a name");
            }
            // Stored as a task's owner and written to logs: no control characters (U+0000 included).
            if (name.chars().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException("a principal's name holds a control character");
            }
        }

        @Override
        public String owner() {
            return name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
