package legate.tap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import legate.testsupport.SourceTree;
import org.junit.jupiter.api.Test;

/**
 * The tap's five layers and the one way their dependencies point (tap/README.md, "Layers"):
 * {@code http} reads and writes HTTP/1.1 and knows nothing of the tap; {@code show} knows nothing
 * of how traffic is forwarded; {@code proxy} uses the codec and, of {@code show}, only the events
 * and how listeners get them; {@code grpc} reads a forwarded gRPC connection's calls into the same
 * events; {@code web}, the inspector page, uses {@code show} only. Read from the main sources as they are on disk.
 */
class TapLayersTest {
    private static final Path SOURCES = SourceTree.root().resolve("tap/src/main/java/legate/tap");
    private static final Pattern TAP_TYPE = Pattern.compile("legate\\.tap\\.(\\w+)\\.(\\w+)");
    private static final Pattern OTHER_THAN_THE_CODEC = Pattern.compile("legate\\.(?!tap\\.http\\b)");
    /** What the proxy may use of show: the events, the listener interface, and the listeners' thread. */
    private static final List<String> LISTENER_INTERFACE =
            List.of("ExchangeEvent", "ExchangeListener", "ListenerThread", "ShownHeaders");

    // Rule: every class of the tap's main code lives in one of the four layers.
    @Test
    void everyClassIsInALayer() throws IOException {
        try (Stream<Path> top = Files.list(SOURCES)) {
            assertThat(top.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("http", "proxy", "show", "web", "grpc");
        }
    }

    // Rule: the codec depends on no other part of the tap, nor on anything of Legate's.
    @Test
    void theCodecDependsOnNothingOfTheTap() throws IOException {
        assertThat(uses("http")).allMatch(u -> u.startsWith("http."));
        assertThat(sourcesOf("http")).noneMatch(text -> OTHER_THAN_THE_CODEC.matcher(text).find());
    }

    // Rule: what shows traffic knows nothing of the codec or the proxy, so another source of events
    // (a log replayed, a test) can be shown the same way.
    @Test
    void showDependsOnNeitherTheCodecNorTheProxy() throws IOException {
        assertThat(uses("show")).allMatch(u -> u.startsWith("show."));
    }

    // Rule: the proxy uses the codec, and of show only the listener interface, never a printer or the log;
    // of grpc only the view of a forwarded gRPC connection.
    @Test
    void theProxyUsesOnlyTheListenerInterfaceOfShow() throws IOException {
        assertThat(uses("proxy")).allMatch(u -> u.startsWith("http.") || u.startsWith("proxy.")
                || u.equals("grpc.GrpcCallView")
                || (u.startsWith("show.") && LISTENER_INTERFACE.contains(u.substring("show.".length()))));
    }

    // Rule: what reads gRPC calls knows nothing of how they are forwarded, and reports them as the
    // proxy reports HTTP/1.1 exchanges: through the events and the listener interface of show only.
    @Test
    void theGrpcViewUsesOnlyTheListenerInterfaceOfShow() throws IOException {
        assertThat(uses("grpc")).allMatch(u -> u.startsWith("grpc.")
                || (u.startsWith("show.") && LISTENER_INTERFACE.contains(u.substring("show.".length()))));
    }

    // Rule: the inspector page is one more listener: it uses what show reports and knows nothing of
    // the codec or the proxy, so a replayed file and live traffic reach it the same way.
    @Test
    void theInspectorUsesOnlyShow() throws IOException {
        assertThat(uses("web")).allMatch(u -> u.startsWith("show.") || u.startsWith("web."));
    }

    /** Every {@code legate.tap.<layer>.<Type>} a layer's sources name, as {@code layer.Type}, its package line aside. */
    private static List<String> uses(String layer) throws IOException {
        List<String> uses = new ArrayList<>();
        for (String text : sourcesOf(layer)) {
            Matcher m = TAP_TYPE.matcher(text.replaceFirst("package [\\w.]+;", ""));
            while (m.find()) {
                uses.add(m.group(1) + "." + m.group(2));
            }
        }
        return uses;
    }

    private static List<String> sourcesOf(String layer) throws IOException {
        List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES.resolve(layer))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                texts.add(Files.readString(f));
            }
        }
        assertThat(texts).as("sources of %s", layer).isNotEmpty();
        return texts;
    }
}
