package legate.a2a.server.observe;

import java.util.Map;
import java.util.TreeMap;

/**
 * A scrape parsed the way Prometheus reads it: each sample line {@code name{k="v",...} value}
 * becomes a key of the name and its labels in sorted order, so a test can name a series exactly.
 */
final class PrometheusText {
    private final Map<String, Double> samples = new TreeMap<>();

    PrometheusText(String text) {
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String series = line.substring(0, space);
            double value = Double.parseDouble(line.substring(space + 1));
            samples.put(key(series), value);
        }
    }

    /** The sample of {@code name} with exactly these labels (k1, v1, k2, v2, ...), or null. */
    Double value(String name, String... labels) {
        TreeMap<String, String> wanted = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return samples.get(name + wanted);
    }

    /** The series names seen, labels included. */
    Map<String, Double> samples() {
        return samples;
    }

    private static String key(String series) {
        int brace = series.indexOf('{');
        if (brace < 0) {
            return series + "{}";
        }
        TreeMap<String, String> labels = new TreeMap<>();
        String body = series.substring(brace + 1, series.lastIndexOf('}'));
        int i = 0;
        while (i < body.length()) {
            int eq = body.indexOf('=', i);
            int open = body.indexOf('"', eq);
            int close = open + 1;
            while (body.charAt(close) != '"' || body.charAt(close - 1) == '\\') {
                close++;
            }
            labels.put(body.substring(i, eq).strip(), body.substring(open + 1, close));
            i = close + 1;
            if (i < body.length() && body.charAt(i) == ',') {
                i++;
            }
        }
        return series.substring(0, brace) + labels;
    }
}
