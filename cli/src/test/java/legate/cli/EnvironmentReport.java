package legate.cli;

import java.util.TreeMap;

/** A child that prints its environment, one {@code KEY=VALUE} line each, and exits: what an agent would see. */
public final class EnvironmentReport {
    private EnvironmentReport() {
    }

    public static void main(String[] args) {
        new TreeMap<>(System.getenv()).forEach((k, v) -> System.out.println(k + "=" + v));
    }
}
