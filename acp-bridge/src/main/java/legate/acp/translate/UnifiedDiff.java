package legate.acp.translate;

import java.util.Arrays;
import java.util.List;

/**
 * One file's change as a unified diff (the format {@code diff -u} and {@code git apply} read): the
 * lines that differ between the old and the new text, as one hunk with up to three lines of
 * context on each side. The changed region is what lies between the common first and last lines,
 * which is exact for the single edits agents make and still a correct (if wider) diff otherwise.
 */
final class UnifiedDiff {
    private static final int CONTEXT = 3;

    private UnifiedDiff() {
    }

    /**
     * @param path the file, as the agent named it
     * @param oldText the text before, or null for a new file
     * @param newText the text after
     * @return the diff, or an empty string when nothing changed
     */
    static String of(String path, String oldText, String newText) {
        List<String> a = lines(oldText);
        List<String> b = lines(newText);
        int prefix = 0;
        while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < a.size() - prefix && suffix < b.size() - prefix
                && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
            suffix++;
        }
        if (prefix == a.size() && prefix == b.size()) {
            return "";
        }
        int from = Math.max(0, prefix - CONTEXT);
        int aEnd = Math.min(a.size(), a.size() - suffix + CONTEXT);
        int bEnd = Math.min(b.size(), b.size() - suffix + CONTEXT);
        StringBuilder sb = new StringBuilder();
        sb.append("--- ").append(oldText == null ? "/dev/null" : "a/" + strip(path)).append('\n');
        sb.append("+++ b/").append(strip(path)).append('\n');
        sb.append("@@ -").append(range(from, aEnd - from)).append(" +").append(range(from, bEnd - from)).append(" @@\n");
        for (int i = from; i < prefix; i++) {
            sb.append(' ').append(a.get(i)).append('\n');
        }
        for (int i = prefix; i < a.size() - suffix; i++) {
            sb.append('-').append(a.get(i)).append('\n');
        }
        for (int i = prefix; i < b.size() - suffix; i++) {
            sb.append('+').append(b.get(i)).append('\n');
        }
        for (int i = a.size() - suffix; i < aEnd; i++) {
            sb.append(' ').append(a.get(i)).append('\n');
        }
        return sb.toString();
    }

    /** PROTOCOL (unified diff): a hunk range is "start,count", start 1-based, and 0 for an empty side. */
    private static String range(int start, int count) {
        return (count == 0 ? start : start + 1) + "," + count;
    }

    private static String strip(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }

    private static List<String> lines(String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return Arrays.asList(body.split("\n", -1));
    }
}
