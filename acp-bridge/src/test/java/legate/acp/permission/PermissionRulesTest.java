package legate.acp.permission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Policy files (ACP_POLICY, README "Permissions"): each matcher and action, the first match
 * deciding, the default, the supervised-mode rule every policy keeps, and files that must stop the
 * bridge at start naming the file, line and field.
 */
class PermissionRulesTest {
    static final List<PermissionOption> OPTIONS = List.of(
            new PermissionOption("yes", "Allow", PermissionOption.ALLOW_ONCE),
            new PermissionOption("abort", "No, and stop", PermissionOption.REJECT_ONCE),
            new PermissionOption("denied", "No", PermissionOption.REJECT_ONCE));

    @TempDir
    Path tmp;
    Path rootDir;
    SessionRoot root;

    @BeforeEach
    void layout() throws IOException {
        rootDir = Files.createDirectories(tmp.toRealPath().resolve("work"));
        Files.createDirectories(rootDir.resolve("src"));
        Files.createSymbolicLink(rootDir.resolve("link-out"), tmp.toRealPath());
        root = SessionRoot.given(rootDir);
    }

    private PermissionRules policy(String yaml, boolean asking) throws Exception {
        Path f = tmp.resolve("policy.yaml");
        Files.writeString(f, yaml);
        return PermissionRules.load(f, "default", false, asking);
    }

    private static PermissionRequest call(String kind, String title, List<String> paths, String command) {
        return new PermissionRequest("s", "c1", title, kind, paths, OPTIONS, null, command);
    }

    private PolicyDecision decide(PermissionRules p, PermissionRequest r) {
        return p.decide(r, root);
    }

    @Test
    void theFirstMatchingRuleDecidesAndTheDefaultWhenNoneMatches() throws Exception {
        PermissionRules p = policy("""
                rules:
                  - {action: deny, kind: execute, command: "rm *"}
                  - {action: allow, kind: [execute, read]}
                default: ask
                """, true);
        PolicyDecision rm = decide(p, call("execute", "Run", List.of(), "rm -rf / --no-preserve-root"));
        assertThat(rm.action()).isEqualTo(PolicyAction.DENY);
        assertThat(rm.rule()).startsWith("rule 1 of policy file policy.yaml");
        // PEER (codex-acp): the narrow refusal "denied" is chosen over "abort", which ends the whole turn.
        assertThat(rm.verdict().optionId()).isEqualTo("denied");
        PolicyDecision ls = decide(p, call("execute", "Run", List.of(), "ls -la"));
        assertThat(ls.action()).isEqualTo(PolicyAction.ALLOW);
        assertThat(ls.verdict().optionId()).isEqualTo("yes");
        assertThat(ls.rule()).startsWith("rule 2");
        PolicyDecision edit = decide(p, call("edit", "Edit", List.of("a.txt"), null));
        assertThat(edit.action()).isEqualTo(PolicyAction.ASK);
        assertThat(edit.rule()).startsWith("the default of policy file policy.yaml");
    }

    @ParameterizedTest(name = "{0} against {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        // relative globs are matched inside the root, after resolving
        "src/**         | src/A.java           | true",
        "src/**         | src/deep/B.java      | true",
        "src/*          | src/deep/B.java      | false",
        "src/*.java     | src/A.java           | true",
        "**             | ../outside.txt       | false",
        "**             | link-out/secret      | false",
        "**             | src/../x.txt         | true",
        // an absolute glob is matched against the absolute path
        "/etc/**        | /etc/hosts           | true",
        "/etc/*         | /etc/ssh/config      | false",
    })
    void pathGlobsMatchResolvedPaths(String glob, String path, boolean matches) throws Exception {
        PermissionRules p = policy("rules:\n  - {action: allow, paths: \"" + glob + "\"}\ndefault: deny\n", false);
        assertThat(decide(p, call("edit", "E", List.of(path), null)).action())
                .isEqualTo(matches ? PolicyAction.ALLOW : PolicyAction.DENY);
    }

    @Test
    void everyPathMustMatchAndAnEmptyListMatchesOnlyACallThatNamesNone() throws Exception {
        PermissionRules p = policy("""
                rules:
                  - {action: allow, paths: "src/**"}
                  - {action: ask, paths: []}
                default: deny
                """, true);
        assertThat(decide(p, call("edit", "E", List.of("src/a", "src/b"), null)).action()).isEqualTo(PolicyAction.ALLOW);
        assertThat(decide(p, call("edit", "E", List.of("src/a", "docs/b"), null)).action()).isEqualTo(PolicyAction.DENY);
        assertThat(decide(p, call("edit", "E", List.of(), null)).action()).isEqualTo(PolicyAction.ASK);
    }

    @Test
    void commandAndToolGlobsMatchAnyCharactersSpacesIncluded() throws Exception {
        PermissionRules p = policy("""
                rules:
                  - {action: allow, command: "git status*"}
                  - {action: allow, tool: "Read *"}
                default: deny
                """, false);
        assertThat(decide(p, call("execute", "x", List.of(), "git status --short")).action()).isEqualTo(PolicyAction.ALLOW);
        assertThat(decide(p, call("execute", "x", List.of(), "git push")).action()).isEqualTo(PolicyAction.DENY);
        // A call without a command line never matches a command glob.
        assertThat(decide(p, call("execute", "x", List.of(), null)).action()).isEqualTo(PolicyAction.DENY);
        assertThat(decide(p, call("read", "Read a/b c.txt", List.of(), null)).action()).isEqualTo(PolicyAction.ALLOW);
    }

    @Test
    void anUnknownKindFromTheAgentCountsAsOther() throws Exception {
        PermissionRules p = policy("rules:\n  - {action: allow, kind: other}\ndefault: deny\n", false);
        assertThat(decide(p, call("teleport", "x", List.of(), null)).action()).isEqualTo(PolicyAction.ALLOW);
    }

    @Test
    void underPolicyAnAskRefusesBecauseNobodyIsAsked() throws Exception {
        PolicyDecision d = decide(policy("rules: []\ndefault: ask\n", false), call("edit", "E", List.of("a"), null));
        assertThat(d.action()).isEqualTo(PolicyAction.DENY);
        assertThat(d.verdict().allowed()).isFalse();
        assertThat(d.verdict().reason()).contains("ACP_PERMISSIONS=policy");
    }

    @Test
    void aModeSwitchIsAllowedOnlyBackIntoTheSupervisedModeWhateverThePolicySays() throws Exception {
        PermissionRules p = policy("rules:\n  - {action: allow}\ndefault: deny\n", false);
        PermissionRequest bypass = new PermissionRequest("s", "m", "Exit plan", "switch_mode", List.of(), List.of(
                new PermissionOption("bypassPermissions", "Yes", PermissionOption.ALLOW_ALWAYS),
                new PermissionOption("plan", "No", PermissionOption.REJECT_ONCE)), "bypassPermissions");
        assertThat(decide(p, bypass).verdict().allowed()).isFalse();
    }

    @Test
    void jsonFilesAreReadAsJson() throws Exception {
        Path f = tmp.resolve("p.json");
        Files.writeString(f, "{\"rules\": [{\"action\": \"deny\", \"kind\": [\"fetch\"]}], \"default\": \"allow\"}");
        PermissionRules p = PermissionRules.load(f, "default", false, false);
        assertThat(decide(p, call("fetch", "x", List.of(), null)).action()).isEqualTo(PolicyAction.DENY);
        assertThat(decide(p, call("read", "x", List.of(), null)).action()).isEqualTo(PolicyAction.ALLOW);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "a misspelt matcher     | 'rules:\n  - action: allow\n    kinds: [read]\n'       | line 3, field 'kinds'",
        "an unknown kind        | 'rules:\n  - action: allow\n    kind: [read, wirte]\n' | line 3, field 'kind': unknown kind \"wirte\"",
        "an unknown action      | 'rules:\n  - action: permit\n'                        | line 2, field 'action'",
        "a rule without action  | 'rules:\n  - kind: read\n'                            | line 2, field 'action'",
        "an unknown top field   | 'rules: []\ndefaults: deny\n'                         | line 2, field 'defaults'",
        "no rules               | 'default: deny\n'                                     | field 'rules'",
        "YAML that does not parse | 'rules: [\n  {action: allow\n'                      | does not parse as YAML",
        "an unknown setting     | 'rules:\n  - action: allow\n    when: YOLO\n'          | line 3, field 'when'",
    })
    void aFileThatCannotBeUsedNamesFileLineAndField(String what, String yaml, String expected) throws Exception {
        Path f = tmp.resolve("bad.yaml");
        Files.writeString(f, yaml.replace("\\n", "\n"));
        assertThatThrownBy(() -> PermissionRules.load(f, "default", false, false)).isInstanceOf(PolicyFileError.class)
                .hasMessageStartingWith("policy file " + f).hasMessageContaining(expected);
    }

    @Test
    void aMissingFileIsAnError() {
        assertThatThrownBy(() -> PermissionRules.load(tmp.resolve("none.yaml"), "default", false, false))
                .isInstanceOf(PolicyFileError.class).hasMessageContaining("cannot be read");
    }
}
