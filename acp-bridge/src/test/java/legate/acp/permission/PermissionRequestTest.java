package legate.acp.permission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import org.junit.jupiter.api.Test;

/** Reading session/request_permission params as real agents send them, and leniently when they do not. */
class PermissionRequestTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void readsClaudesWriteRequest() throws Exception {
        // PEER (claude-agent-acp 0.23.1): Write sends kind edit, locations [{path}], rawInput {file_path, content}.
        PermissionRequest request = PermissionRequest.fromParams(json("""
                {"sessionId":"s1","toolCall":{"toolCallId":"toolu_1","title":"Write /w/a.txt","kind":"edit",
                  "locations":[{"path":"/w/a.txt","line":3}],"rawInput":{"file_path":"/w/a.txt","content":"x"}},
                 "options":[{"kind":"allow_always","name":"Always Allow","optionId":"allow_always"},
                            {"kind":"allow_once","name":"Allow","optionId":"allow"},
                            {"kind":"reject_once","name":"Reject","optionId":"reject"}]}
                """));
        assertThat(request.sessionId()).isEqualTo("s1");
        assertThat(request.toolCallId()).isEqualTo("toolu_1");
        assertThat(request.title()).isEqualTo("Write /w/a.txt");
        assertThat(request.toolKind()).isEqualTo(PermissionKind.EDIT);
        assertThat(request.paths()).containsExactly("/w/a.txt");
        assertThat(request.options()).containsExactly(
                new PermissionOption("allow_always", "Always Allow", "allow_always"),
                new PermissionOption("allow", "Allow", "allow_once"),
                new PermissionOption("reject", "Reject", "reject_once"));
        assertThat(request.requestedModeId()).isNull();
    }

    @Test
    void codexPatchSourcesAndMoveDestinationsAreAllPaths() throws Exception {
        // PEER (codex-acp): locations name a move's destination only; rawInput.changes holds the sources.
        PermissionRequest request = PermissionRequest.fromParams(json("""
                {"sessionId":"s","toolCall":{"toolCallId":"c","kind":"edit","locations":[{"path":"/w/new.txt"}],
                  "rawInput":{"call_id":"c","changes":{"/w/old.txt":{"update":{"unified_diff":"","move_path":"/w/new.txt"}},
                                                       "/w/b.txt":{"add":{"content":"x"}}},
                              "grant_root":"/w"}},
                 "options":[]}
                """));
        assertThat(request.paths()).containsExactlyInAnyOrder("/w/new.txt", "/w/old.txt", "/w/b.txt", "/w");
        assertThat(request.paths().get(0)).as("locations come first").isEqualTo("/w/new.txt");
    }

    @Test
    void aModeSwitchNamesTheRequestedModeFromRawInput() throws Exception {
        PermissionRequest request = PermissionRequest.fromParams(json("""
                {"toolCall":{"toolCallId":"m","kind":"switch_mode","rawInput":{"modeId":"full-access"}},"options":[]}
                """));
        assertThat(request.requestedModeId()).isEqualTo("full-access");
        PermissionRequest notASwitch = PermissionRequest.fromParams(json("""
                {"toolCall":{"toolCallId":"m","kind":"execute","rawInput":{"mode":"full-access"}},"options":[]}
                """));
        assertThat(notASwitch.requestedModeId()).isNull();
    }

    @Test
    void missingAndMistypedFieldsAreAbsentNotErrors() throws Exception {
        // Rule: bad input from one agent never costs anyone else; the request is still answered.
        PermissionRequest request = PermissionRequest.fromParams(json("""
                {"sessionId":7,"toolCall":{"kind":42,"locations":[{"line":1},{"path":null},"x"],"rawInput":"text"},
                 "options":[{"name":"no id","kind":"allow_once"},{"optionId":"ok","kind":"allow_once"},3]}
                """));
        assertThat(request.sessionId()).isNull();
        assertThat(request.kind()).isEqualTo("other");
        assertThat(request.paths()).isEmpty();
        assertThat(request.options()).containsExactly(new PermissionOption("ok", null, "allow_once"));

        assertThat(PermissionRequest.fromParams(null).toolKind()).isEqualTo(PermissionKind.OTHER);
        assertThat(PermissionRequest.fromParams(NullNode.getInstance()).options()).isEmpty();
    }

    @Test
    void anUnknownKindIsKeptAsSentAndKnownToBeUnknown() throws Exception {
        // PROTOCOL (ACP ToolKind): an open vocabulary; an unknown kind is handled as "other".
        PermissionRequest request = PermissionRequest.fromParams(json("""
                {"toolCall":{"toolCallId":"t","kind":"teleport"},"options":[]}
                """));
        assertThat(request.kind()).isEqualTo("teleport");
        assertThat(request.toolKind().known()).isFalse();
        assertThat(PermissionKind.of("execute")).isSameAs(PermissionKind.EXECUTE);
        assertThat(PermissionKind.of(null)).isEqualTo(PermissionKind.OTHER);
    }
}
