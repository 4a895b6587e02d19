package legate.acp.adapter;

import java.util.ArrayList;
import java.util.List;

/**
 * An agent command line ({@code ACP_AGENT_CMD}) split into words as a POSIX shell would split it,
 * with no shell involved: blanks separate words, single quotes keep everything literally, double
 * quotes keep blanks and honour {@code \" \\ \$ \`}, a backslash outside quotes escapes the next
 * character. No expansion of any kind happens.
 */
final class CommandWords {
    private CommandWords() {
    }

    /**
     * @throws IllegalArgumentException for an unterminated quote or a trailing backslash, naming it
     */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated single quote in the agent command: " + line);
                }
                word.append(line, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                i = doubleQuoted(line, i + 1, word);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 >= line.length()) {
                    throw new IllegalArgumentException("trailing backslash in the agent command: " + line);
                }
                if (line.charAt(i + 1) != '\n') {
                    word.append(line.charAt(i + 1));
                    inWord = true;
                }
                i += 2;
            } else if (c == ' ' || c == '\t' || c == '\n') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** Appends a double-quoted run starting after its quote; returns the index after the closing quote. */
    private static int doubleQuoted(String line, int i, StringBuilder word) {
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                word.append(line.charAt(i + 1));
                i += 2;
            } else {
                word.append(c);
                i++;
            }
        }
        throw new IllegalArgumentException("unterminated double quote in the agent command: " + line);
    }
}
