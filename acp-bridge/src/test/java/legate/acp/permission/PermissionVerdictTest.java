package legate.acp.permission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which option expresses a decision. PROTOCOL (ACP session/request_permission): the answer names an
 * optionId the agent offered in that request, chosen by kind; an invented id fails claude's turn and
 * silently becomes a cancel in codex.
 */
class PermissionVerdictTest {

    static final List<PermissionOption> CLAUDE = List.of(
            new PermissionOption("allow_always", "Always Allow", "allow_always"),
            new PermissionOption("allow", "Allow", "allow_once"),
            new PermissionOption("reject", "Reject", "reject_once"));

    // PEER (codex-acp 0.16.0, docs/peers.md §6): for an MCP tool "cancel" ends the whole turn, "decline" refuses one tool.
    static final List<PermissionOption> CODEX_DECLINE_CANCEL = List.of(
            new PermissionOption("approved", "Yes", "allow_once"),
            new PermissionOption("cancel", "Cancel", "reject_once"),
            new PermissionOption("decline", "No", "reject_once"));

    // The ids codex-acp 0.16.0 offers for a command: "abort" ends the turn, "denied" refuses one command.
    static final List<PermissionOption> CODEX_EXEC = List.of(
            new PermissionOption("approved", "Yes, proceed", "allow_once"),
            new PermissionOption("approved-for-session", "Yes, and don't ask again", "allow_always"),
            new PermissionOption("abort", "No, and tell Codex what to do differently", "reject_once"),
            new PermissionOption("denied", "No, continue without running it", "reject_once"));

    // codex-acp offers no narrow refusal for a patch.
    static final List<PermissionOption> CODEX_PATCH = List.of(
            new PermissionOption("approved", "Yes", "allow_once"),
            new PermissionOption("abort", "No, provide feedback", "reject_once"));

    @Test
    void claudesSetAllowsOnceAndRejectsOnce() {
        // Rule: allow_once before allow_always, even when allow_always is listed first (as claude does).
        assertThat(PermissionVerdict.allow(CLAUDE, "ok")).isEqualTo(new PermissionVerdict(true, "allow", "ok"));
        assertThat(PermissionVerdict.refuse(CLAUDE, "no")).isEqualTo(new PermissionVerdict(false, "reject", "no"));
    }

    @Test
    void codexDeclineIsPreferredToCancelWhichEndsTheTurn() {
        // PEER (codex-acp): answering "cancel" aborts the whole turn; "decline" refuses only this tool.
        assertThat(PermissionVerdict.refuse(CODEX_DECLINE_CANCEL, "no").optionId()).isEqualTo("decline");
        assertThat(PermissionVerdict.allow(CODEX_DECLINE_CANCEL, "ok").optionId()).isEqualTo("approved");
    }

    @Test
    void codexDeniedIsPreferredToAbortWhichEndsTheTurn() {
        // PEER (codex-acp 0.16.0): the same pair under the ids the binary really sends for commands.
        assertThat(PermissionVerdict.refuse(CODEX_EXEC, "no").optionId()).isEqualTo("denied");
        assertThat(PermissionVerdict.allow(CODEX_EXEC, "ok").optionId()).isEqualTo("approved");
    }

    @Test
    void aTurnEndingRefusalIsUsedWhenItIsTheOnlyOne() {
        // PEER (codex-acp): a patch offers only "abort", so a refused edit ends codex's turn as cancelled.
        PermissionVerdict verdict = PermissionVerdict.refuse(CODEX_PATCH, "outside");
        assertThat(verdict.optionId()).isEqualTo("abort");
        assertThat(verdict.allowed()).isFalse();
    }

    @Test
    void aRejectAlwaysIsNarrowerThanEndingTheTurn() {
        List<PermissionOption> offered = List.of(
                new PermissionOption("cancel", "Cancel", "reject_once"),
                new PermissionOption("block-host", "No, and block this host", "reject_always"));
        assertThat(PermissionVerdict.refuse(offered, "no").optionId()).isEqualTo("block-host");
    }

    @Test
    void theAlwaysKindsAreUsedWhenTheOnceKindsAreMissing() {
        List<PermissionOption> offered = List.of(
                new PermissionOption("yes-forever", "Always", "allow_always"),
                new PermissionOption("no-forever", "Never", "reject_always"));
        assertThat(PermissionVerdict.allow(offered, "ok").optionId()).isEqualTo("yes-forever");
        assertThat(PermissionVerdict.refuse(offered, "no").optionId()).isEqualTo("no-forever");
    }

    @Test
    void rejectOnceIsPreferredToRejectAlways() {
        List<PermissionOption> offered = List.of(
                new PermissionOption("never", "Never", "reject_always"),
                new PermissionOption("not-now", "No", "reject_once"));
        assertThat(PermissionVerdict.refuse(offered, "no").optionId()).isEqualTo("not-now");
    }

    @Test
    void withoutAFittingOptionTheAnswerIsCancelledAndNothingIsInvented() {
        // Rule: never invent an id; an allowed call the agent offers no allow option for does not run.
        List<PermissionOption> onlyRefusals = List.of(new PermissionOption("reject", "Reject", "reject_once"));
        PermissionVerdict allowed = PermissionVerdict.allow(onlyRefusals, "reads only");
        assertThat(allowed.allowed()).isFalse();
        assertThat(allowed.optionId()).isNull();
        assertThat(allowed.cancelled()).isTrue();
        assertThat(allowed.reason()).startsWith("reads only").contains("cancelled");

        PermissionVerdict refused = PermissionVerdict.refuse(List.of(), "outside");
        assertThat(refused.cancelled()).isTrue();
        assertThat(refused.reason()).startsWith("outside").contains("cancelled");
    }

    @Test
    void anOptionOfAnUnknownKindIsNeverChosen() {
        List<PermissionOption> offered = List.of(
                new PermissionOption("maybe", "Maybe", "allow_sometimes"),
                new PermissionOption("kindless", "No kind", null));
        assertThat(PermissionVerdict.allow(offered, "ok").cancelled()).isTrue();
        assertThat(PermissionVerdict.refuse(offered, "no").cancelled()).isTrue();
    }

    @Test
    void theResultIsTheOutcomeObjectOfTheSpec() {
        // PROTOCOL (ACP RequestPermissionOutcome): {"outcome":{"outcome":"selected","optionId":..}} or cancelled.
        assertThat(new PermissionVerdict(true, "allow", "ok").toResult().toString())
                .isEqualTo("{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"allow\"}}");
        assertThat(new PermissionVerdict(false, null, "none fits").toResult().toString())
                .isEqualTo("{\"outcome\":{\"outcome\":\"cancelled\"}}");
    }
}
