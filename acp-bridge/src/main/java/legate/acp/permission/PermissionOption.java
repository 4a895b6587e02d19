package legate.acp.permission;

/**
 * One choice an agent offers in {@code session/request_permission} ({@code PermissionOption}).
 * The answer must name the {@code optionId} of one of these; the {@code kind} says what it means.
 *
 * @param optionId the id to answer with, chosen by the agent
 * @param name a label for people
 * @param kind {@value #ALLOW_ONCE}, {@value #ALLOW_ALWAYS}, {@value #REJECT_ONCE}, {@value #REJECT_ALWAYS},
 *     or a kind this bridge does not know (never chosen)
 */
public record PermissionOption(String optionId, String name, String kind) {

    public static final String ALLOW_ONCE = "allow_once";
    public static final String ALLOW_ALWAYS = "allow_always";
    public static final String REJECT_ONCE = "reject_once";
    public static final String REJECT_ALWAYS = "reject_always";
}
