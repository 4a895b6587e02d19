package legate.cli.service;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.Optional;
import legate.wire.http.BindAddress;

/**
 * Where an installed service answers, read from its configuration with Legate's defaults: the
 * address to probe from this machine, and, when it is bound wider than loopback, the machine's LAN
 * address another machine would use.
 */
record ServiceAddress(String host, int port) {

    static ServiceAddress of(ServiceKind kind, ServiceEnvironment env) {
        String hostKey = kind == ServiceKind.MCP ? "MCP_HOST" : "HOST";
        String portKey = kind == ServiceKind.MCP ? "MCP_PORT" : "PORT";
        int defaultPort = kind == ServiceKind.MCP ? 41243 : 41241;
        int port = defaultPort;
        try {
            port = Integer.parseInt(env.get(portKey).orElse("" + defaultPort).strip());
        } catch (NumberFormatException e) {
            // The service itself refuses it at start; probing the default says "no answer" all the same.
        }
        return new ServiceAddress(env.get(hostKey).orElse("127.0.0.1"), port);
    }

    boolean wildcard() {
        return host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
    }

    boolean loopback() {
        return host.equals("127.0.0.1") || host.equals("localhost") || host.equals("::1") || host.equals("[::1]")
                || host.startsWith("127.");
    }

    /** The URL to reach it from this machine: a wildcard bind answers on loopback too. */
    String localBase() {
        return BindAddress.dialableUrl(host, port, "");
    }

    /** The URL another machine on the network uses, when the bind reaches beyond loopback. */
    Optional<String> lanBase() {
        if (loopback()) {
            return Optional.empty();
        }
        if (!wildcard()) {
            return Optional.of(localBase());
        }
        return lanAddress().map(a -> "http://" + a + ":" + port);
    }

    /** The first site-local IPv4 address of an interface that is up: the usual LAN address. */
    static Optional<String> lanAddress() {
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!ni.isUp() || ni.isLoopback()) {
                    continue;
                }
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    if (a instanceof Inet4Address && a.isSiteLocalAddress()) {
                        return Optional.of(a.getHostAddress());
                    }
                }
            }
        } catch (SocketException e) {
            // No interface list: no LAN address to suggest.
        }
        return Optional.empty();
    }
}
