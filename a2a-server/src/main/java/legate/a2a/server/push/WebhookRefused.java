package legate.a2a.server.push;

/**
 * A webhook URL that {@link WebhookGuard} refuses, with the rule it breaks: what a caller is told
 * at registration (-32602, naming the rule) and what a delivery logs when a re-check refuses it.
 */
public final class WebhookRefused extends Exception {
    private final String rule;

    WebhookRefused(String rule, String detail) {
        super("push notification URL refused by the rule \"" + rule + "\": " + detail);
        this.rule = rule;
    }

    /** The rule's name as the README lists it ("https", "no credentials", "public address", ...). */
    public String rule() {
        return rule;
    }
}
