import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's table: one section per workload, each row a figure with its median and min–max over
 * the rounds for both sides, the median and min–max of the per-round comparison (a ratio, or a
 * difference), the target and whether the median meets it. A row whose samples include a failed
 * request or stream is marked INVALID and never counts as met.
 */
final class Report {
    /** How a row's comparison is checked against its target: the comparison median, or side A's median. */
    enum On { CMP, A }

    record Target(On on, boolean atLeast, double limit, String text) {
        boolean met(double cmp, double a) {
            double v = on == On.CMP ? cmp : a;
            return !Double.isNaN(v) && (atLeast ? v >= limit : v <= limit);
        }
    }

    static Target ratioAtLeast(double x) {
        return new Target(On.CMP, true, x, "≥ " + plain(x) + "x");
    }

    static Target ratioAtMost(double x) {
        return new Target(On.CMP, false, x, "≤ " + plain(x) + "x");
    }

    static final class Row {
        final String figure;
        final List<Double> a = new ArrayList<>(), b = new ArrayList<>(), cmp = new ArrayList<>();
        String cmpUnit = "x";
        Target target;
        String invalid;
        String note;

        Row(String figure) {
            this.figure = figure;
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("figure", figure);
            m.put("a", a);
            m.put("b", b);
            m.put("compare", cmp);
            m.put("compare_unit", cmpUnit);
            m.put("a_median", median(a));
            m.put("b_median", median(b));
            m.put("compare_median", median(cmp));
            m.put("target", target == null ? null : target.text);
            m.put("met", verdict());
            m.put("invalid", invalid);
            m.put("note", note);
            return m;
        }

        String verdict() {
            if (invalid != null) {
                return "INVALID";
            }
            if (target == null) {
                return "";
            }
            return target.met(median(cmp), median(a)) ? "met" : "missed";
        }
    }

    static final class Section {
        final String title, aName, bName, cmpName;
        final List<Row> rows = new ArrayList<>();
        final List<String> notes = new ArrayList<>();

        Section(String title, String aName, String bName, String cmpName) {
            this.title = title;
            this.aName = aName;
            this.bName = bName;
            this.cmpName = cmpName;
        }

        Row row(String figure) {
            Row r = new Row(figure);
            rows.add(r);
            return r;
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("title", title);
            m.put("a", aName);
            m.put("b", bName);
            m.put("compare", cmpName);
            m.put("rows", rows.stream().map(Row::json).toList());
            m.put("notes", notes);
            return m;
        }
    }

    final List<Section> sections = new ArrayList<>();

    Section section(String title, String aName, String bName, String cmpName) {
        Section s = new Section(title, aName, bName, cmpName);
        sections.add(s);
        return s;
    }

    boolean anyInvalid() {
        return sections.stream().flatMap(s -> s.rows.stream()).anyMatch(r -> r.invalid != null);
    }

    /** The whole table as Markdown, readable on a terminal as well. */
    String markdown() {
        StringBuilder b = new StringBuilder();
        for (Section s : sections) {
            b.append("### ").append(s.title).append("\n\n");
            b.append("| figure | ").append(s.aName).append(" | ").append(s.bName).append(" | ").append(s.cmpName)
                    .append(" | target | |\n|---|---:|---:|---:|---|---|\n");
            for (Row r : s.rows) {
                b.append("| ").append(r.figure).append(" | ").append(cell(r.a, "")).append(" | ")
                        .append(cell(r.b, "")).append(" | ").append(cell(r.cmp, r.cmpUnit)).append(" | ")
                        .append(r.target == null ? "" : r.target.text).append(" | ")
                        .append(lastCell(r)).append(" |\n");
            }
            for (String n : s.notes) {
                b.append("\n").append(n).append("\n");
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static String lastCell(Row r) {
        String v = r.invalid != null ? "**INVALID**: " + r.invalid : r.verdict();
        return r.note == null ? v : v.isEmpty() ? r.note : v + "; " + r.note;
    }

    /** "median (min–max)"; a single sample prints alone; no samples print as a dash. */
    static String cell(List<Double> v, String unit) {
        List<Double> xs = v.stream().filter(x -> x != null && !x.isNaN()).toList();
        if (xs.isEmpty()) {
            return "–";
        }
        String u = unit.equals("x") ? "x" : unit.isEmpty() ? "" : " " + unit;
        String sign = unit.equals("ms") ? "+" : "";
        boolean counts = unit.isEmpty() && xs.stream().allMatch(x -> x == Math.rint(x) && Math.abs(x) < 1e15);
        java.util.function.DoubleFunction<String> f = counts ? x -> String.format(Locale.ROOT, "%,.0f", x) : Report::num;
        double m = median(xs);
        String med = (sign.isEmpty() || m < 0 ? "" : sign) + (m == Math.rint(m) ? f.apply(m) : num(m)) + u;
        if (xs.size() == 1) {
            return med;
        }
        double lo = xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double hi = xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return med + " (" + f.apply(lo) + "–" + f.apply(hi) + ")";
    }

    static double median(List<Double> v) {
        double[] xs = v.stream().filter(x -> x != null && !x.isNaN()).mapToDouble(Double::doubleValue).sorted()
                .toArray();
        if (xs.length == 0) {
            return Double.NaN;
        }
        int n = xs.length;
        return n % 2 == 1 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
    }

    static String plain(double x) {
        return java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
    }

    /** Three significant digits at most, thousands grouped: 12,345 / 123 / 12.3 / 1.23 / 0.123. */
    static String num(double x) {
        if (Double.isNaN(x)) {
            return "–";
        }
        double ax = Math.abs(x);
        if (ax >= 100) {
            return String.format(Locale.ROOT, "%,.0f", x);
        }
        if (ax >= 10) {
            return String.format(Locale.ROOT, "%.1f", x);
        }
        if (ax >= 1) {
            return String.format(Locale.ROOT, "%.2f", x);
        }
        if (ax == 0) {
            return "0";
        }
        return String.format(Locale.ROOT, "%.3f", x);
    }

    static final String BEGIN = "<!-- bench:begin (written by bench/run; edit the text outside these markers) -->";
    static final String END = "<!-- bench:end -->";

    /** Replaces the generated part of docs/benchmarks.md (between the markers), keeping the rest. */
    static void writeDocs(Path docs, String generated) throws IOException {
        String block = BEGIN + "\n\n" + generated.strip() + "\n\n" + END + "\n";
        String text;
        if (Files.exists(docs)) {
            String old = Files.readString(docs, StandardCharsets.UTF_8);
            int from = old.indexOf("<!-- bench:begin");
            int to = old.indexOf(END);
            if (from >= 0 && to > from) {
                text = old.substring(0, from) + block + old.substring(to + END.length()).replaceFirst("^\n", "");
            } else {
                text = old.stripTrailing() + "\n\n## Latest figures\n\n" + block;
            }
        } else {
            Files.createDirectories(docs.getParent());
            text = "# Benchmarks\n\nSee bench/README.md for how these figures are made.\n\n## Latest figures\n\n" + block;
        }
        Files.writeString(docs, text, StandardCharsets.UTF_8);
    }

    static List<Double> list(double... xs) {
        return new ArrayList<>(Arrays.stream(xs).boxed().toList());
    }
}
