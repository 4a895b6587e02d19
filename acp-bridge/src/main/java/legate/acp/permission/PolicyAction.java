package legate.acp.permission;

import java.util.Locale;

/** What a permission policy says about a request: the three actions a policy file may name. */
public enum PolicyAction {
    /** The agent gets the option that allows the call (allow_once, else allow_always). */
    ALLOW,
    /** The agent gets its own refusal option (the narrowest one offered). */
    DENY,
    /** The A2A caller is asked ({@code ACP_PERMISSIONS=ask}); under {@code policy} this refuses. */
    ASK;

    /** The action's name in a policy file. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The action a policy file names, or null for a name that is none of the three. */
    static PolicyAction named(String name) {
        for (PolicyAction a : values()) {
            if (a.value().equals(name)) {
                return a;
            }
        }
        return null;
    }
}
