package legate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Value;
import java.util.Random;
import legate.a2a.model.NestingLimit;
import org.junit.jupiter.api.Test;

/**
 * {@link NestedJson} makes values exactly as deep as asked, counted as {@link NestingLimit} counts:
 * the nesting property's "at the limit" cases would prove nothing if they came out shallower.
 */
class NestedJsonTest {
    @Test
    void everyValueAndObjectIsExactlyAsDeepAsAskedUpToOnePastTheLimit() {
        NestedJson json = new NestedJson(new Random(30));
        for (int depth = 0; depth <= NestingLimit.MAX_DEPTH + 1; depth++) {
            for (int i = 0; i < 20; i++) {
                assertThat(NestingLimit.depth(json.value(depth))).as("value of depth %d", depth).isEqualTo(depth);
                if (depth > 0) {
                    Value object = Value.newBuilder().setStructValue(json.object(depth)).build();
                    assertThat(NestingLimit.depth(object)).as("object of depth %d", depth).isEqualTo(depth);
                }
            }
        }
    }
}
