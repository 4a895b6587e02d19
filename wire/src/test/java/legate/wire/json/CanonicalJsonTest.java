package legate.wire.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** RFC 8785's own examples: what a signed Agent Card's signature is computed over (A2A §8.4). */
class CanonicalJsonTest {

    private static JsonNode read(String json) throws Exception {
        return WireJson.mapper().readTree(json);
    }

    /** PROTOCOL (RFC 8785 §3.2.2): the example of the section, numbers, escapes and literals together. */
    @Test
    void theRfcsPrimitiveExampleIsWrittenAsTheRfcWritesIt() throws Exception {
        JsonNode in = read("""
                {
                  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
                  "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
                  "literals": [null, true, false]
                }""");
        assertThat(CanonicalJson.string(in)).isEqualTo(
                "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                        + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
    }

    /** PROTOCOL (RFC 8785 §3.2.3): member names sorted by UTF-16 code units, a surrogate pair before U+FB33. */
    @Test
    void membersAreSortedByUtf16CodeUnits() throws Exception {
        JsonNode in = read("""
                {
                  "\\u20ac": "Euro Sign",
                  "\\r": "Carriage Return",
                  "\\ufb33": "Hebrew Letter Dalet With Dagesh",
                  "1": "One",
                  "\\ud83d\\ude00": "Emoji: Grinning Face",
                  "\\u0080": "Control",
                  "\\u00f6": "Latin Small Letter O With Diaeresis"
                }""");
        assertThat(CanonicalJson.string(in)).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
                + "\"\ud83d\ude00\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
    }

    @Test
    void nestedObjectsAreSortedAndWhitespaceDropped() throws Exception {
        assertThat(CanonicalJson.string(read("{ \"b\" : [ 1 , {\"z\":1,\"a\":\"x\"} ], \"a\" : { } }")))
                .isEqualTo("{\"a\":{},\"b\":[1,{\"a\":\"x\",\"z\":1}]}");
    }

    /** PROTOCOL (RFC 8785 §3.2.2.3 and Appendix B): the number table, as IEEE 754 bit patterns. */
    @ParameterizedTest
    @CsvSource({
            "0000000000000000, 0",
            "8000000000000000, 0",
            "0000000000000001, 5e-324",
            "8000000000000001, -5e-324",
            "7fefffffffffffff, 1.7976931348623157e+308",
            "ffefffffffffffff, -1.7976931348623157e+308",
            "4340000000000000, 9007199254740992",
            "c340000000000000, -9007199254740992",
            "4430000000000000, 295147905179352830000",
            "44b52d02c7e14af5, 9.999999999999997e+22",
            "44b52d02c7e14af6, 1e+23",
            "44b52d02c7e14af7, 1.0000000000000001e+23",
            "444b1ae4d6e2ef4e, 999999999999999700000",
            "444b1ae4d6e2ef4f, 999999999999999900000",
            "444b1ae4d6e2ef50, 1e+21",
            "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
            "3eb0c6f7a0b5ed8d, 0.000001",
            "41b3de4355555553, 333333333.3333332",
            "41b3de4355555554, 333333333.33333325",
            "41b3de4355555555, 333333333.3333333",
            "41b3de4355555556, 333333333.3333334",
            "41b3de4355555557, 333333333.33333343",
            "becbf647612f3696, -0.0000033333333333333333",
            "43143ff3c1cb0959, 1424953923781206.2",
    })
    void numbersAreWrittenAsEcmaScriptWritesThem(String bits, String expected) {
        double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
        assertThat(CanonicalJson.number(d)).isEqualTo(expected);
    }

    /** PROTOCOL (RFC 8785 §3.2.2.3): NaN and Infinity have no JSON form and are refused. */
    @Test
    void nanAndInfinityAreRefused() {
        assertThatThrownBy(() -> CanonicalJson.number(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CanonicalJson.number(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void integersBeyondLongAndControlCharactersAreCanonical() throws Exception {
        assertThat(CanonicalJson.string(read("[12345678901234567890, \"\\u001f\\u007f\"]")))
                .isEqualTo("[12345678901234567000,\"\\u001f\u007f\"]");
    }
}
