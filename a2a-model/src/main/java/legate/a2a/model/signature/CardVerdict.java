package legate.a2a.model.signature;

/** What checking an Agent Card's signatures against trusted keys found. */
public sealed interface CardVerdict {
    /** One line a person reads: which key verified it, or why nothing did. */
    String describe();

    /** A signature of the card verified with the trusted key {@code kid}. */
    record Verified(String kid, String algorithm) implements CardVerdict {
        @Override
        public String describe() {
            return "signature verified (" + algorithm + ", key " + kid + ")";
        }
    }

    /** No signature of the card verified; {@code reason} says what each attempt met. */
    record Refused(String reason) implements CardVerdict {
        @Override
        public String describe() {
            return "signature refused: " + reason;
        }
    }
}
