package legate.cli.client;

import java.io.PrintWriter;
import legate.a2a.client.A2aClient;
import legate.a2a.client.Binding;
import legate.a2a.client.UserMessage;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * The demonstration {@code legate client} runs without a subcommand: one task through two turns and
 * a lookup, which shows what A2A adds to a function call. Turn 1 sends an empty message and the task
 * stops at INPUT_REQUIRED; turn 2 answers into the same task (WORKING, the artifact, COMPLETED);
 * GetTask then finds the task stored, outliving both calls.
 */
public final class ClientDemo {
    private final A2aClient client;
    private final EventPrinter printer;
    private final PrintWriter err;

    public ClientDemo(A2aClient client, EventPrinter printer, PrintWriter err) {
        this.client = client;
        this.printer = printer;
        this.err = err;
    }

    public int run(String text) {
        AgentCard card = client.card();
        printer.note(printer.palette().bold(card.getName()) + " " + card.getVersion() + ", "
                + Binding.describe(client.endpoint()));
        printer.note("");
        printer.heading("Turn 1: an empty message. The agent needs text, so the task should stop at INPUT_REQUIRED.");
        Turn first = Turn.send(client, UserMessage.text(""), printer);
        if (first.problem() != null) {
            return fail(first.problem());
        }
        if (first.taskId() == null || TaskStates.isTerminal(first.state())) {
            printer.note("The agent finished without asking for input, so there is no second turn.");
            return ClientExit.OK.code();
        }
        printer.note("");
        // PROTOCOL (A2A §3.4): a message naming the task continues it; the ids are the server's.
        printer.heading("Turn 2: text into the same task " + first.taskId() + ".");
        Turn second = Turn.send(client, UserMessage.text(text, first.taskId(), first.contextId()), printer);
        printer.note("");
        printer.heading("GetTask " + first.taskId() + ": the task is stored and outlives both calls.");
        Task stored = client.getTask(first.taskId());
        if (printer.json()) {
            printer.task(stored);
        } else {
            TaskState state = stored.getStatus().getState();
            printer.note("  " + printer.palette().state(state, TaskStates.label(state))
                    + ", " + plural(stored.getArtifactsCount(), "artifact")
                    + ", history of " + plural(stored.getHistoryCount(), "message")
                    + ", context " + stored.getContextId());
        }
        return second.problem() == null ? ClientExit.OK.code() : fail(second.problem());
    }

    private int fail(String reason) {
        err.println("legate client: " + reason);
        err.flush();
        return ClientExit.TASK_UNFINISHED.code();
    }

    private static String plural(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
