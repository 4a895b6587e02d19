package legate.cli;

import java.io.IOException;
import java.net.BindException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.observe.Telemetry;
import legate.a2a.server.push.PushSettings;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.TaskStore;
import picocli.CommandLine;
import sun.misc.Signal;

/**
 * The steps {@code legate agent} and {@code legate bridge} share between their common options and a
 * server that serves until SIGTERM: the edge, push and telemetry read from the options, the store
 * opened and the instances joined, the listener bound, and the drain on the way out. One place says
 * what each failure is called and which exit status it has, so the two commands cannot drift apart:
 * a client must not be able to tell from the wire which of them it reached, and an operator's
 * scripts read the same lines and codes from both.
 */
final class ServerStart {
    private ServerStart() {
    }

    /**
     * A step that cannot go on. Its message, when it has one, is for the person starting the server
     * and is printed after the command's name; a null message was printed already.
     */
    static final class Refused extends Exception {
        private final int exitCode;

        Refused(int exitCode, String message) {
            super(message, null, false, false);
            this.exitCode = exitCode;
        }

        /** Prints the message, if any, as {@code command: message}; returns the exit status. */
        int report(String command) {
            if (getMessage() != null) {
                System.err.println(command + ": " + getMessage());
            }
            return exitCode;
        }
    }

    /** What the server is configured with before its store is opened. */
    record Prepared(ServerSetup setup, ServerEdge edge, ServerConfig config, Telemetry telemetry) {
        /** The configuration with the edge (TLS, proxies, limits) in it: what the server is built from. */
        ServerConfig served() {
            return config.withEdge(edge);
        }

        /**
         * The same server without TLS and without authentication: for a session a process holds with
         * itself over loopback, which speaks plain http and has no credentials to give.
         */
        Prepared anonymousOverPlainHttp() {
            return new Prepared(setup.withHttps(false), ServerEdge.PLAIN, config.withSecurity(ServerSecurity.NONE),
                    telemetry);
        }
    }

    /**
     * Reads the public URL, the edge (TLS, proxies), push and telemetry from the options: a value
     * that is wrong is a usage error (2), a key or certificate file that cannot be read is the exit
     * status {@link EdgeOptions.Unusable} gives.
     *
     * @param serviceName the name traces are exported under
     */
    static Prepared prepare(ServerOptions server, EdgeOptions edge, PushOptions push, String serviceName) throws Refused {
        ServerSetup plain = server.setup();
        if (plain == null) {
            throw new Refused(2, null);
        }
        ServerEdge serverEdge;
        PushSettings pushSettings;
        try {
            serverEdge = edge.edge(server.security.apiKeyHeader);
            pushSettings = push.settings();
        } catch (EdgeOptions.Unusable e) {
            throw new Refused(e.exitCode(), e.getMessage());
        }
        ServerSetup setup = plain.withHttps(serverEdge.tls() != null);
        try {
            ServerConfig config = server.config(setup.rpcPath()).withPush(pushSettings);
            if (serverEdge.tls() == null && !config.security().authentication().clientAuthorities().isEmpty()) {
                throw new Refused(2, "A2A_CLIENT_CA needs TLS_CERT and TLS_KEY: a client certificate is presented"
                        + " in the TLS handshake, so the server must serve HTTPS");
            }
            return new Prepared(setup, serverEdge, config, server.telemetry(serviceName));
        } catch (IllegalArgumentException e) {
            throw new Refused(2, e.getMessage());
        }
    }

    /** The store TASK_STORE names, open: one that is configured right but cannot be opened now is exit status 1. */
    static TaskStore openStore(ServerOptions server, Supplier<CommandLine> blame) throws Refused {
        String note = server.earlierStoreNote();
        if (note != null) {
            System.err.println(note);
        }
        try {
            return TaskStores.open(server, blame);
        } catch (TaskStores.StoreUnavailable e) {
            throw new Refused(1, e.getMessage());
        }
    }

    /** The instances the store is shared with; the store is closed when the instance keys are a usage error. */
    static InstanceGroup group(TaskStore store, ServerOptions server, ServerSetup setup, Supplier<CommandLine> blame) {
        try {
            return TaskStores.group(store, server, setup, blame);
        } catch (CommandLine.ParameterException e) {
            store.close();
            throw e;
        }
    }

    /**
     * What to do about a port another process holds. legate agent and legate bridge share the
     * default PORT, 41241: started side by side from one folder, each needs its own.
     */
    private static String portHint(IOException e) {
        Throwable t = e;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof BindException) {
                return " (another process holds it, perhaps another legate agent or bridge: give this one a PORT "
                        + "of its own, or 0 for any free port)";
            }
        }
        return "";
    }

    /**
     * Runs {@code stop} on SIGTERM instead of the JVM's own handler, which runs the shutdown hooks
     * and then exits 143 whatever they did: systemd records 143 after {@code legate service stop}
     * as a failure. {@code stop} must let the command's main thread return, whose status is then
     * the exit status; it should also be a shutdown hook, for the other ways out (Ctrl-C).
     */
    static void onSigterm(Runnable stop) {
        try {
            Signal.handle(new Signal("TERM"), signal -> stop.run());
        } catch (IllegalArgumentException e) {
            // The JVM keeps SIGTERM to itself (-Xrs): the shutdown hook stops, and the exit status is the JVM's.
        }
    }

    /** A server's way out: stopped at once when its start failed. */
    interface Stop {
        void stop() throws Exception;
    }

    /**
     * Starts the server; returns the port bound. A port that cannot be bound, or instances on the
     * database that cannot be joined (it went away after the store opened), stop the server and
     * are exit status 1, as is a {@link Refused} the start throws itself.
     */
    static int listen(ServerOptions server, Callable<Integer> start, Stop stop) throws Exception {
        try {
            return start.call();
        } catch (Refused e) {
            stop.stop();
            throw e;
        } catch (IOException e) {
            stop.stop();
            throw new Refused(1, "cannot listen on " + server.host + ":" + server.port + ": " + e.getMessage() + portHint(e));
        } catch (RuntimeException e) {
            stop.stop();
            throw new Refused(1, "cannot start: " + e.getMessage());
        }
    }

    /** How a started server is drained: new turns refused, running ones given the grace to finish, streams ended cleanly. */
    interface Drain {
        /** @return whether every running turn ended within the grace */
        boolean drain(Duration grace) throws Exception;
    }

    /** Returns once the server has stopped. */
    interface Join {
        void join() throws InterruptedException;
    }

    /**
     * How a started server stops: on SIGTERM it drains within SHUTDOWN_GRACE_MS and closes the
     * exporter of traces, so that the last spans leave the process; {@link #serve} returns the exit
     * status once both are done: 0 after a clean drain, 1 (after saying why) when turns were still
     * running at the end of the grace or the drain failed.
     *
     * <p>SIGTERM is handled here rather than left to the JVM, whose own handler runs the shutdown
     * hooks and then exits 143 whatever they did: systemd records 143 after {@code legate service
     * stop} as a failure. Any other way out (Ctrl-C, SIGHUP) still drains, in a shutdown hook, with
     * the JVM's exit status. Armed as soon as the server listens, before its start-up lines: a
     * supervisor that stops it as soon as it reads "listening" must not meet the JVM's handler.
     */
    static final class Stopping {
        private final AtomicBoolean begun = new AtomicBoolean();
        private final AtomicReference<String> unclean = new AtomicReference<>();
        private final CountDownLatch stopped = new CountDownLatch(1);
        private final String command;

        private Stopping(ServerOptions server, Drain drain, Telemetry telemetry, String command) {
            this.command = command;
            Duration grace = Duration.ofMillis(server.shutdownGraceMs);
            Runnable stop = () -> {
                if (!begun.compareAndSet(false, true)) {
                    return;
                }
                try {
                    if (!drain.drain(grace)) {
                        unclean.set("turns still running after SHUTDOWN_GRACE_MS (" + grace.toMillis()
                                + " ms) were cut off; exit status 1");
                    }
                } catch (Exception e) {
                    unclean.set("the drain failed (" + e + "); exit status 1");
                }
                telemetry.tracing().close();
                stopped.countDown();
            };
            Runtime.getRuntime().addShutdownHook(new Thread(stop, "legate-shutdown"));
            onSigterm(stop);
        }

        /** Serves until the server has stopped and the stop is done; returns the exit status. */
        int serve(Join join) throws InterruptedException {
            join.join();
            stopped.await();
            if (unclean.get() != null) {
                System.err.println(command + ": " + unclean.get());
                return 1;
            }
            return 0;
        }
    }

    /** Arms the stop of a server that listens now; {@code command} names it in the line an unclean stop prints. */
    static Stopping stopping(ServerOptions server, Drain drain, Telemetry telemetry, String command) {
        return new Stopping(server, drain, telemetry, command);
    }
}
