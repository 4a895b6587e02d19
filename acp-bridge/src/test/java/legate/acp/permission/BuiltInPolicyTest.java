package legate.acp.permission;

import static legate.acp.permission.PermissionVerdictTest.CLAUDE;
import static legate.acp.permission.PermissionVerdictTest.CODEX_PATCH;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import legate.testsupport.SourceTree;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The built-in policy (README, "Permissions"), read from its text, both directions for each tool
 * kind: today's classifier written as rules. Under ACP_PERMISSIONS=policy the A2A caller is never
 * asked, and a refusal's reason is what the caller reads.
 */
class BuiltInPolicyTest {

    static final List<PermissionOption> CLAUDE_EXIT_PLAN = List.of(
            new PermissionOption("bypassPermissions", "Yes, and bypass permissions", "allow_always"),
            new PermissionOption("acceptEdits", "Yes, and auto-accept edits", "allow_always"),
            new PermissionOption("default", "Yes, and manually approve edits", "allow_once"),
            new PermissionOption("plan", "No, keep planning", "reject_once"));

    @TempDir
    Path tmp;

    Path rootDir;
    Path outside;
    SessionRoot given;
    SessionRoot ours;
    final PermissionRules claude = PermissionRules.builtIn("default", false);

    @BeforeEach
    void layout() throws IOException {
        Path base = tmp.toRealPath();
        rootDir = Files.createDirectories(base.resolve("work/root"));
        outside = Files.createDirectory(base.resolve("outside"));
        Files.createDirectory(base.resolve("work/root-evil"));
        Files.createSymbolicLink(rootDir.resolve("escape"), outside);
        given = SessionRoot.given(rootDir);
        ours = SessionRoot.createIn(base.resolve("sandboxes"));
    }

    static PermissionRequest request(String kind, List<String> paths, List<PermissionOption> options) {
        return new PermissionRequest("s1", "call-1", "Tool title", kind, paths, options, null);
    }

    /** The built-in policy's verdict; nothing is asked under ACP_PERMISSIONS=policy. */
    static PermissionVerdict verdict(PermissionPolicy policy, PermissionRequest request, SessionRoot root) {
        return policy.decide(request, root).verdict();
    }

    static PermissionVerdict explained(PermissionVerdict verdict) {
        // Rule: every verdict carries a human reason; refusals reach the A2A caller.
        assertThat(verdict.reason()).isNotBlank();
        return verdict;
    }

    @ParameterizedTest
    @ValueSource(strings = {"read", "search", "think"})
    void readingKindsAreAllowedEvenInAGivenDirectory(String kind) {
        PermissionVerdict verdict = explained(verdict(claude, 
                request(kind, List.of(outside.resolve("x").toString()), CLAUDE), given));
        assertThat(verdict.allowed()).isTrue();
        assertThat(verdict.optionId()).isEqualTo("allow");
    }

    @ParameterizedTest
    @ValueSource(strings = {"edit", "delete", "move"})
    void fileChangesInsideTheRootAreAllowed(String kind) {
        PermissionVerdict verdict = explained(verdict(claude, 
                request(kind, List.of(rootDir.resolve("src/A.java").toString(), "..notes", "docs/new.md"), CLAUDE),
                given));
        assertThat(verdict.allowed()).isTrue();
        assertThat(verdict.optionId()).isEqualTo("allow");
    }

    @ParameterizedTest
    @ValueSource(strings = {"edit", "delete", "move"})
    void fileChangesOutsideTheRootAreRefusedInEverySpelling(String kind) {
        List<String> spellings = List.of("../x", "a/../../x", outside.resolve("x").toString(),
                rootDir + "-evil/x", "escape/x", "escape/new-dir/new-file");
        for (String path : spellings) {
            PermissionVerdict verdict = explained(verdict(claude, request(kind, List.of(path), CLAUDE), given));
            assertThat(verdict.allowed()).as(path).isFalse();
            assertThat(verdict.optionId()).as(path).isEqualTo("reject");
        }
    }

    @Test
    void oneOutsidePathRefusesTheWholeCallAndTheReasonNamesItAndTheRoot() {
        PermissionVerdict verdict = explained(verdict(claude, 
                request("edit", List.of("inside.txt", "../../elsewhere.txt"), CLAUDE), given));
        assertThat(verdict.allowed()).isFalse();
        assertThat(verdict.reason()).contains("../../elsewhere.txt").contains(rootDir.toString());
    }

    @Test
    void aFileChangeThatNamesNoFileIsAllowedOnlyInOurSandbox() {
        assertThat(explained(verdict(claude, request("edit", List.of(), CLAUDE), ours)).allowed()).isTrue();
        PermissionVerdict refused = explained(verdict(claude, request("delete", List.of(), CLAUDE), given));
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.optionId()).isEqualTo("reject");
    }

    @Test
    void aRefusedCodexPatchIsAnsweredWithItsOnlyRefusal() {
        // PEER (codex-acp): a patch offers approved/abort only; the refusal must still use an offered id.
        PermissionVerdict verdict = verdict(claude, request("edit", List.of("/etc/passwd"), CODEX_PATCH), ours);
        assertThat(verdict.optionId()).isEqualTo("abort");
    }

    @ParameterizedTest
    @ValueSource(strings = {"execute", "fetch", "other", "teleport", ""})
    void actionsAreAllowedInOurSandbox(String kind) {
        PermissionVerdict verdict = explained(verdict(claude, request(kind, List.of(), CLAUDE), ours));
        assertThat(verdict.allowed()).isTrue();
        assertThat(verdict.optionId()).isEqualTo("allow");
    }

    @ParameterizedTest
    @ValueSource(strings = {"execute", "fetch", "other", "teleport", ""})
    void actionsAreRefusedInAGivenDirectoryAndTheReasonSaysHowToAllowThem(String kind) {
        // Rule: unknown kinds are handled as "other", which is refused here too.
        PermissionVerdict verdict = explained(verdict(claude, request(kind, List.of(), CLAUDE), given));
        assertThat(verdict.allowed()).isFalse();
        assertThat(verdict.optionId()).isEqualTo("reject");
        assertThat(verdict.reason()).contains("ACP_ALLOW_EXECUTE=true");
    }

    @ParameterizedTest
    @ValueSource(strings = {"execute", "fetch", "other", "teleport"})
    void allowExecuteAllowsActionsInAGivenDirectory(String kind) {
        PermissionRules permissive = PermissionRules.builtIn("default", true);
        PermissionVerdict verdict = explained(verdict(permissive, request(kind, List.of(), CLAUDE), given));
        assertThat(verdict.allowed()).isTrue();
        assertThat(verdict.reason()).contains("ACP_ALLOW_EXECUTE");
    }

    @Test
    void allowExecuteDoesNotWidenFileChanges() {
        PermissionRules permissive = PermissionRules.builtIn("default", true);
        assertThat(verdict(permissive, request("edit", List.of("../x"), CLAUDE), given).allowed()).isFalse();
    }

    @Test
    void claudeLeavingPlanModeMayOnlyGoBackIntoTheSupervisedMode() {
        // PEER (claude-agent-acp): ExitPlanMode's option ids are the modes; "default" is the supervised one,
        // so "acceptEdits" and "bypassPermissions" must not be chosen although they allow.
        PermissionVerdict verdict = explained(verdict(claude, request("switch_mode", List.of(), CLAUDE_EXIT_PLAN), given));
        assertThat(verdict.allowed()).isTrue();
        assertThat(verdict.optionId()).isEqualTo("default");
    }

    @Test
    void aSwitchWhoseOptionsDoNotLeadToTheSupervisedModeIsRefused() {
        PermissionRules codex = PermissionRules.builtIn("read-only", false);
        PermissionVerdict verdict = explained(verdict(codex, request("switch_mode", List.of(), CLAUDE_EXIT_PLAN), ours));
        assertThat(verdict.allowed()).isFalse();
        assertThat(verdict.optionId()).isEqualTo("plan");
        assertThat(verdict.reason()).contains("read-only");
    }

    @Test
    void aSwitchNamingItsTargetModeIsAllowedOnlyIntoTheSupervisedMode() {
        PermissionRules codex = PermissionRules.builtIn("read-only", false);
        PermissionRequest back = new PermissionRequest("s", "t", "Mode", "switch_mode", List.of(), CLAUDE, "read-only");
        PermissionRequest up = new PermissionRequest("s", "t", "Mode", "switch_mode", List.of(), CLAUDE, "full-access");
        assertThat(explained(verdict(codex, back, given)).optionId()).isEqualTo("allow");
        PermissionVerdict refused = explained(verdict(codex, up, ours));
        assertThat(refused.optionId()).isEqualTo("reject");
        assertThat(refused.reason()).contains("full-access").contains("read-only");
    }

    @Test
    void anAgentWithoutASupervisedModeMayNotSwitch() {
        PermissionRules modeless = PermissionRules.builtIn(null, true);
        PermissionRequest request = new PermissionRequest("s", "t", "Mode", "switch_mode", List.of(), CLAUDE, "default");
        assertThat(explained(verdict(modeless, request, ours)).allowed()).isFalse();
    }

    @Test
    void theReadmeShowsTheBuiltInPolicyAsTheBridgeReadsIt() throws IOException {
        // Issue 12: the docs cannot drift from the code: the bridge runs the very text the README shows.
        String readme = Files.readString(SourceTree.resolve("README.md"));
        assertThat(readme).contains("```yaml\n" + PermissionRules.builtInText() + "```");
    }
}
