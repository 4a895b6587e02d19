package legate.revisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import legate.revisor.TextStats.WordCount;
import org.junit.jupiter.api.Test;

/** Revisor's definitions, chosen to agree with a JavaScript implementation on the same string. */
class TextStatsTest {

    @Test
    void countsWordsCharactersAndSentences() {
        TextStats s = TextStats.of("The quick brown fox. It jumps!");
        assertThat(s.words()).isEqualTo(6);
        assertThat(s.characters()).isEqualTo(30);
        assertThat(s.sentences()).isEqualTo(2);
        assertThat(s.averageWordLength()).isEqualTo(4.17);
        assertThat(s.summary()).isEqualTo("Words: 6, characters: 30, sentences: 2.");
    }

    @Test
    void aNoBreakSpaceSeparatesWordsAsJavaScriptsBackslashSDoes() {
        // Character.isWhitespace says no to U+00A0 and U+202F; JavaScript's \s says yes.
        assertThat(TextStats.of("one\u00A0two\u202Fthree\u3000four").words()).isEqualTo(4);
    }

    @Test
    void charactersAreUtf16CodeUnitsLikeStringLengthInJavaScript() {
        assertThat(TextStats.of("a😀").characters()).isEqualTo(3);
    }

    @Test
    void sentencesAreTheNonBlankPiecesBetweenRunsOfTerminators() {
        assertThat(TextStats.of("Wait... What?! Yes… no").sentences()).isEqualTo(4);
        assertThat(TextStats.of("  ...  !!! ").sentences()).isZero();
        assertThat(TextStats.of("no terminator").sentences()).isEqualTo(1);
    }

    @Test
    void emptyTextHasNothing() {
        TextStats s = TextStats.of("");
        assertThat(s.words()).isZero();
        assertThat(s.averageWordLength()).isZero();
        assertThat(s.topWords()).isEmpty();
    }

    @Test
    void averageWordLengthRoundsHalfUpToTwoDecimals() {
        // 1 + 2 + 2 + 2 + 2 + 2 + 2 + 2 = 15 letters over 8 words = 1.875 -> 1.88
        assertThat(TextStats.of("a bb cc dd ee ff gg hh").averageWordLength()).isEqualTo(1.88);
    }

    @Test
    void topWordsAreLowerCasedStrippedLongerThanThreeAndTiesKeepFirstSeenOrder() {
        TextStats s = TextStats.of("Zebra apple, zebra! APPLE mango kiwi kiwi kiwi? well-known well-known pear pear");
        // "kiwi?" -> kiwi; "apple," and "APPLE" -> apple; the hyphen stays; "mango" (1) falls off the top five
        assertThat(s.topWords()).containsExactly(
                new WordCount("kiwi", 3), new WordCount("zebra", 2), new WordCount("apple", 2),
                new WordCount("well-known", 2), new WordCount("pear", 2));
    }

    @Test
    void topWordsOrderByCountThenFirstSeenAndKeepFive() {
        TextStats s = TextStats.of("alpha beta1 gamma delta gamma epsilon zeta3 eta2 gamma delta");
        assertThat(s.topWords()).extracting(WordCount::word)
                .containsExactly("gamma", "delta", "alpha", "beta1", "epsilon");
        assertThat(s.topWords()).extracting(WordCount::count).containsExactly(3, 2, 1, 1, 1);
    }

    @Test
    void lowerCasingDoesNotDependOnTheMachinesLocale() {
        Locale saved = Locale.getDefault();
        try {
            // In Turkish, "TITLE".toLowerCase() gives a dotless ı; Revisor must not.
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            assertThat(TextStats.of("TITLE TITLE").topWords()).containsExactly(new WordCount("title", 2));
        } finally {
            Locale.setDefault(saved);
        }
    }
}
