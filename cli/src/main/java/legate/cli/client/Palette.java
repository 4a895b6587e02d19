package legate.cli.client;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.Map;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.TaskState;

/**
 * The colours of the client's output for people: task states by how they ended, kinds and ids dimmed.
 * Off unless standard output is a terminal and NO_COLOR is unset (no-color.org: set and not empty
 * turns colour off), so pipes, files and scripts get plain text.
 */
public record Palette(boolean on) {
    private static final String RESET = "\u001B[0m";

    public static final Palette PLAIN = new Palette(false);

    public static Palette forTerminal(Map<String, String> env) {
        String noColor = env.get("NO_COLOR");
        return new Palette(isTerminal(System.console()) && (noColor == null || noColor.isEmpty()));
    }

    String state(TaskState state, String text) {
        if (state == TaskState.TASK_STATE_COMPLETED) {
            return paint("32", text);
        }
        if (TaskStates.isTerminal(state)) {
            return paint("31", text);
        }
        if (TaskStates.isInterrupted(state)) {
            return paint("33", text);
        }
        return paint("36", text);
    }

    public String dim(String text) {
        return paint("2", text);
    }

    String bold(String text) {
        return paint("1", text);
    }

    private String paint(String code, String text) {
        return on ? "\u001B[" + code + "m" + text + RESET : text;
    }

    /**
     * Whether the console is a terminal. On JDK 22, whose default console provider is JLine,
     * System.console() is not null even when output is redirected (JDK 25 returns null again), so
     * Console.isTerminal(), added in 22, decides where it exists; it is looked up reflectively
     * because the build targets Java 21.
     */
    private static boolean isTerminal(Console console) {
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
