package legate.revisor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The statistics Revisor reports for a text. The definitions are chosen so a JavaScript
 * implementation gives the same numbers for the same string (the reference server in
 * {@code interop/} is one):
 * <ul>
 *   <li>words: tokens separated by whitespace as JavaScript's {@code \s} reads it, which includes
 *       the no-break spaces that {@link Character#isWhitespace} leaves out;
 *   <li>characters: the length in UTF-16 code units, as {@code String.length} in both languages;
 *   <li>sentences: the non-blank pieces between runs of {@code . ! ? …};
 *   <li>averageWordLength: the mean token length rounded half up to two decimals;
 *   <li>topWords: tokens lower-cased without regard to the machine's locale, stripped of every
 *       character that is not a letter, a digit or {@code -}, kept when longer than three
 *       characters; the five most frequent, ties in first-seen order.
 * </ul>
 */
public record TextStats(int characters, int words, int sentences, double averageWordLength, List<WordCount> topWords) {

    /** One entry of {@link #topWords}. */
    public record WordCount(String word, int count) {
    }

    public static TextStats of(String text) {
        List<String> tokens = tokens(text);
        long letters = 0;
        for (String t : tokens) {
            letters += t.length();
        }
        double average = tokens.isEmpty() ? 0 : Math.round(letters * 100.0 / tokens.size()) / 100.0;
        return new TextStats(text.length(), tokens.size(), sentences(text), average, topWords(tokens, 5));
    }

    /** JavaScript's {@code \s}: ECMAScript WhiteSpace and LineTerminator code points. */
    static boolean isJsWhitespace(char c) {
        return switch (c) {
            case '\t', '\n', '\u000B', '\f', '\r', ' ', '\u00A0', '\u1680', '\u2028', '\u2029', '\u202F', '\u205F',
                 '\u3000', '\uFEFF' -> true;
            default -> c >= '\u2000' && c <= '\u200A';
        };
    }

    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < text.length(); i++) {
            if (isJsWhitespace(text.charAt(i))) {
                if (start >= 0) {
                    out.add(text.substring(start, i));
                    start = -1;
                }
            } else if (start < 0) {
                start = i;
            }
        }
        if (start >= 0) {
            out.add(text.substring(start));
        }
        return out;
    }

    static int sentences(String text) {
        int count = 0;
        boolean content = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.' || c == '!' || c == '?' || c == '…') {
                if (content) {
                    count++;
                }
                content = false;
            } else if (!isJsWhitespace(c)) {
                content = true;
            }
        }
        return content ? count + 1 : count;
    }

    static List<WordCount> topWords(List<String> tokens, int limit) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String token : tokens) {
            String key = normalise(token);
            if (key.length() > 3) {
                counts.merge(key, 1, Integer::sum);
            }
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        // A stable sort on count alone keeps first-seen order among equal counts.
        entries.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
        List<WordCount> top = new ArrayList<>();
        for (int i = 0; i < Math.min(limit, entries.size()); i++) {
            top.add(new WordCount(entries.get(i).getKey(), entries.get(i).getValue()));
        }
        return List.copyOf(top);
    }

    private static String normalise(String token) {
        String lower = token.toLowerCase(Locale.ROOT);
        StringBuilder kept = new StringBuilder(lower.length());
        lower.codePoints()
                .filter(cp -> Character.isLetter(cp) || Character.isDigit(cp) || cp == '-')
                .forEach(kept::appendCodePoint);
        return kept.toString();
    }

    /** The text part of the artifact: {@code Words: W, characters: C, sentences: S.} */
    public String summary() {
        return "Words: " + words + ", characters: " + characters + ", sentences: " + sentences + ".";
    }
}
