package legate.acp.permission;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Fuzzes the reading of a permission policy file (ACP_POLICY_FILE), YAML or JSON as the first
 * byte says (docs/fuzzing.md). Property: a file that is not a policy costs a
 * {@link PolicyFileError} naming the file (its documented failure: the bridge prints it and exits
 * 2), never another exception, which would stop the bridge with a stack trace and no line to fix.
 */
class PolicyFileFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void anyFileIsAPolicyOrAPolicyFileError(byte[] input) {
        if (input.length == 0) {
            return;
        }
        boolean json = (input[0] & 1) == 1;
        String text = new String(Arrays.copyOfRange(input, 1, input.length), StandardCharsets.UTF_8);
        try {
            PolicyFile.parse(text, "policy", json);
        } catch (PolicyFileError e) {
            assertThat(e).hasMessageStartingWith("policy file policy");
        }
    }
}
