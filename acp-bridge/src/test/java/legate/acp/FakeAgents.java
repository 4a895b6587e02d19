package legate.acp;

import java.util.ArrayList;
import java.util.List;
import legate.acp.adapter.Backend;
import legate.acp.connection.AdapterCommand;

/** Commands and backends that run {@link FakeAcpAgent} as a child of this JVM, with its java and classpath. */
public final class FakeAgents {
    private FakeAgents() {
    }

    public static AdapterCommand command(String... args) {
        List<String> argv = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                // A small, quick child: these flags halve its start-up on two cores.
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k",
                "-cp", System.getProperty("java.class.path"), FakeAcpAgent.class.getName()));
        argv.addAll(List.of(args));
        return AdapterCommand.of(argv);
    }

    /** A generic backend over the fake agent, selecting its supervised mode {@code default}. */
    public static Backend backend(String... args) {
        return withMode("default", args);
    }

    public static Backend withMode(String mode, String... args) {
        return new Backend(Backend.GENERIC, null, command(args), mode,
                "Log the fake agent in by passing no --auth-at-new.");
    }
}
