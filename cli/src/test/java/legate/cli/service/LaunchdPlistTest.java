package legate.cli.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The LaunchAgents {@code legate service install} writes on macOS, parsed as XML and read the way
 * launchd reads a property list (a dict of key/value pairs): the keys that make it a service that
 * starts at login, restarts after a failure but not after a clean stop, and is throttled; and hostile
 * values coming back out of the XML exactly as they went in.
 */
class LaunchdPlistTest {
    static final String HOSTILE = SystemdUnitTest.HOSTILE + " ]]> &amp; <!--";

    static Map<String, Object> parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        DocumentBuilder b = f.newDocumentBuilder();
        Element plist = b.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        assertThat(plist.getTagName()).isEqualTo("plist");
        assertThat(plist.getAttribute("version")).isEqualTo("1.0");
        List<Element> top = elements(plist);
        assertThat(top).hasSize(1);
        @SuppressWarnings("unchecked") Map<String, Object> dict = (Map<String, Object>) value(top.get(0));
        return dict;
    }

    private static List<Element> elements(Node n) {
        List<Element> out = new ArrayList<>();
        for (Node c = n.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element e) {
                out.add(e);
            }
        }
        return out;
    }

    private static Object value(Element e) {
        return switch (e.getTagName()) {
            case "dict" -> {
                Map<String, Object> m = new LinkedHashMap<>();
                List<Element> kids = elements(e);
                assertThat(kids.size() % 2).as("a dict alternates key and value").isZero();
                for (int i = 0; i < kids.size(); i += 2) {
                    assertThat(kids.get(i).getTagName()).isEqualTo("key");
                    m.put(kids.get(i).getTextContent(), value(kids.get(i + 1)));
                }
                yield m;
            }
            case "array" -> elements(e).stream().map(LaunchdPlistTest::value).toList();
            case "string" -> e.getTextContent();
            case "integer" -> Long.parseLong(e.getTextContent());
            case "true" -> true;
            case "false" -> false;
            default -> throw new AssertionError("not a plist element: " + e.getTagName());
        };
    }

    private static ServiceLayout layout(String launcher) {
        return new ServiceLayout(Path.of(launcher), Path.of("/Users/a/Library/Application Support/Legate"),
                Path.of("/Users/a/Library/LaunchAgents"), Path.of("/Users/a/Library/Logs/Legate"));
    }

    @Test
    void startsAtLoginRestartsOnlyAfterAFailureAndIsThrottled() throws Exception {
        for (ServiceKind kind : ServiceKind.values()) {
            Map<String, Object> p = parse(new LaunchdPlist(kind, layout("/opt/legate/bin/legate"), Map.of(),
                    Duration.ofSeconds(30)).render());
            assertThat(p.get("Label")).isEqualTo("dev.legate." + kind.id());
            assertThat(p.get("ProgramArguments")).isEqualTo(List.of("/opt/legate/bin/legate", kind.id()));
            assertThat(p.get("RunAtLoad")).isEqualTo(true);
            assertThat(p.get("KeepAlive")).isEqualTo(Map.of("SuccessfulExit", false));
            assertThat(p.get("ThrottleInterval")).isEqualTo(10L);
            assertThat(p.get("ExitTimeOut")).isEqualTo(30L);
            assertThat(p.get("WorkingDirectory")).isEqualTo("/Users/a/Library/Application Support/Legate/" + kind.id());
            assertThat(p.get("StandardErrorPath")).isEqualTo("/Users/a/Library/Logs/Legate/" + kind.id() + ".log");
            assertThat(p).doesNotContainKey("EnvironmentVariables");
        }
    }

    @Test
    void hostileValuesComeBackOutOfTheXmlUnchanged() throws Exception {
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("PATH", "/usr/bin:" + HOSTILE);
        vars.put("LEGATE_JAVA_OPTS", HOSTILE);
        Map<String, Object> p = parse(new LaunchdPlist(ServiceKind.BRIDGE, layout("/opt/" + HOSTILE + "/legate"), vars,
                Duration.ofSeconds(30)).render());
        assertThat(p.get("ProgramArguments")).isEqualTo(List.of("/opt/" + HOSTILE + "/legate", "bridge"));
        assertThat(p.get("EnvironmentVariables")).isEqualTo(vars);
    }

    @Test
    void aControlCharacterIsRefusedNamingTheKey() {
        LaunchdPlist plist = new LaunchdPlist(ServiceKind.AGENT, layout("/opt/legate"), Map.of("JAVA_HOME", "/x\u0007y"),
                Duration.ofSeconds(30));
        assertThatThrownBy(plist::render).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("JAVA_HOME");
    }
}
