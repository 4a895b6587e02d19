package legate.cli.log;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J binding of {@code LOG_FORMAT=json}: every log event as one JSON object on its own line
 * on stderr ({@link JsonConsoleLogger}), for a collector that reads a container's console.
 *
 * <p>Why a binding of its own rather than a layout: Jetty's binding (jetty-slf4j-impl, the text
 * format) has no public way to swap its appender. This one is not listed in
 * {@code META-INF/services}, so it never competes with Jetty's; {@code legate} names it in the
 * {@code slf4j.provider} system property before the first logger exists, and only when asked.
 * Levels are read as Jetty reads them ({@code <logger>.LEVEL} in {@code jetty-logging.properties}
 * or a system property), so one configuration serves both formats.
 */
public final class JsonConsoleLogging implements SLF4JServiceProvider {
    private final BasicMarkerFactory markers = new BasicMarkerFactory();
    private final NOPMDCAdapter mdc = new NOPMDCAdapter();
    private volatile ILoggerFactory factory;

    /** Makes SLF4J use this binding; call before anything asks for a logger. */
    public static void install() {
        System.setProperty("slf4j.provider", JsonConsoleLogging.class.getName());
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        Properties levels = new Properties();
        try (InputStream in = JsonConsoleLogging.class.getClassLoader().getResourceAsStream("jetty-logging.properties")) {
            if (in != null) {
                levels.load(in);
            }
        } catch (IOException e) {
            // no configured levels: INFO for everything
        }
        levels.putAll(System.getProperties());
        this.factory = new Factory(levels, System.err);
    }

    /** One logger per name, each with its level settled when it is first asked for. */
    private static final class Factory implements ILoggerFactory {
        private final Properties levels;
        private final PrintStream out;
        private final Map<String, Logger> loggers = new ConcurrentHashMap<>();

        Factory(Properties levels, PrintStream out) {
            this.levels = levels;
            this.out = out;
        }

        @Override
        public Logger getLogger(String name) {
            return loggers.computeIfAbsent(name, n -> new JsonConsoleLogger(n, threshold(n), out));
        }

        /** The level of the nearest configured ancestor (a.b.C, a.b, a), INFO when none is; OFF as null. */
        private Level threshold(String name) {
            String n = name;
            while (true) {
                String v = levels.getProperty(n + ".LEVEL");
                if (v != null) {
                    String level = v.strip().toUpperCase(Locale.ROOT);
                    return switch (level) {
                        case "OFF" -> null;
                        case "ALL" -> Level.TRACE;
                        case "WARNING" -> Level.WARN;
                        default -> {
                            try {
                                yield Level.valueOf(level);
                            } catch (IllegalArgumentException e) {
                                yield Level.INFO;
                            }
                        }
                    };
                }
                int dot = n.lastIndexOf('.');
                if (dot < 0) {
                    return Level.INFO;
                }
                n = n.substring(0, dot);
            }
        }
    }
}
