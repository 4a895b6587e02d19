package legate.cli.client;

import com.google.protobuf.util.Timestamps;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import legate.a2a.client.ResumeAttempt;
import legate.a2a.model.ProtoJson;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;

/**
 * Prints what an A2A agent sends, as it arrives: for people, one line per event with its kind and
 * the task's state (an artifact adds one indented line per text line or data field); with
 * {@code --json}, each event or result as one line of ProtoJSON for scripts, and nothing else on
 * standard output (a line about a resumed stream goes to standard error there).
 */
public final class EventPrinter {
    private static final int KIND_WIDTH = 10;
    private static final int LABEL_WIDTH = 17;
    private static final String INDENT = "  ";
    private static final String CONTINUATION = " ".repeat(INDENT.length() + KIND_WIDTH + LABEL_WIDTH);

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean json;
    private final Palette palette;

    public EventPrinter(PrintWriter out, PrintWriter err, boolean json, Palette palette) {
        this.out = out;
        this.err = err;
        this.json = json;
        this.palette = palette;
    }

    boolean json() {
        return json;
    }

    /** One stream event, flushed at once; usable as a StreamListener. */
    boolean event(StreamResponse event) {
        if (json) {
            return line(ProtoJson.print(event));
        }
        switch (event.getPayloadCase()) {
            case TASK -> {
                Task t = event.getTask();
                row("task", state(t.getStatus().getState()), palette.dim("id " + t.getId() + "  context " + t.getContextId()));
            }
            case STATUS_UPDATE -> {
                TaskStatus s = event.getStatusUpdate().getStatus();
                row("status", state(s.getState()), s.hasMessage() ? PartText.said(s.getMessage()) : "");
            }
            case ARTIFACT_UPDATE -> {
                Artifact a = event.getArtifactUpdate().getArtifact();
                String name = a.getName().isEmpty() ? a.getArtifactId() : a.getName();
                artifact(event.getArtifactUpdate().getAppend() ? name + " (+)" : name, a);
            }
            case MESSAGE -> {
                Message m = event.getMessage();
                List<String> lines = m.getPartsList().stream().flatMap(p -> PartText.lines(p).stream()).toList();
                row("message", pad(m.getRole().name().replace("ROLE_", "").toLowerCase(Locale.ROOT)),
                        lines.isEmpty() ? "" : lines.get(0));
                lines.stream().skip(1).forEach(l -> out.println(CONTINUATION + l));
            }
            case PAYLOAD_NOT_SET -> row("unknown", pad(""), palette.dim("an event of a kind this client does not know"));
        }
        out.flush();
        return true;
    }

    /** A Task answered by GetTask, CancelTask or a blocking SendMessage. */
    public void task(Task t) {
        if (json) {
            line(ProtoJson.print(t));
            return;
        }
        TaskState state = t.getStatus().getState();
        out.println(palette.bold("task " + t.getId()) + "  " + palette.state(state, TaskStates.label(state)));
        field("context", t.getContextId());
        if (t.getStatus().hasTimestamp()) {
            field("updated", Timestamps.toString(t.getStatus().getTimestamp()));
        }
        if (t.getStatus().hasMessage()) {
            field("says", PartText.said(t.getStatus().getMessage()));
        }
        field("artifacts", Integer.toString(t.getArtifactsCount()));
        field("history", t.getHistoryCount() + (t.getHistoryCount() == 1 ? " message" : " messages"));
        for (Artifact a : t.getArtifactsList()) {
            artifact(a.getName().isEmpty() ? a.getArtifactId() : a.getName(), a);
        }
        out.flush();
    }

    /** One page of ListTasks: a line per task, newest first, and where the next page starts. */
    public void page(ListTasksResponse page) {
        if (json) {
            line(ProtoJson.printListTasks(page, false));
            return;
        }
        for (Task t : page.getTasksList()) {
            TaskState s = t.getStatus().getState();
            out.println(INDENT + t.getId() + "  " + palette.state(s, pad(TaskStates.label(s)))
                    + palette.dim("context " + t.getContextId()
                    + (t.getStatus().hasTimestamp() ? "  " + Timestamps.toString(t.getStatus().getTimestamp()) : "")));
        }
        out.println(page.getTasksCount() + " of " + page.getTotalSize() + " task(s)"
                + (page.getNextPageToken().isEmpty() ? "" : "; next page: --page-token " + page.getNextPageToken()));
        out.flush();
    }

    /** Push notification configurations (ListTaskPushNotificationConfigs, or one from Get or Create): a line each. */
    public void pushConfigs(List<TaskPushNotificationConfig> configs, String nextPageToken) {
        if (json) {
            for (TaskPushNotificationConfig c : configs) {
                line(ProtoJson.print(c));
            }
            return;
        }
        for (TaskPushNotificationConfig c : configs) {
            // The credentials and the token are secrets the caller already holds: only whether they are set.
            out.println(INDENT + c.getId() + "  " + c.getUrl() + palette.dim(
                    (c.hasAuthentication() ? "  authentication " + c.getAuthentication().getScheme() : "")
                            + (c.getToken().isEmpty() ? "" : "  token set") + "  task " + c.getTaskId()));
        }
        out.println(configs.size() + " push configuration(s)"
                + (nextPageToken.isEmpty() ? "" : "; next page: --page-token " + nextPageToken));
        out.flush();
    }

    /**
     * One verified push notification ({@code legate push-receiver}): {@code task T #3 status
     * WORKING: Counting.}, or with {@code --json} the StreamResponse as one line.
     */
    public void notification(StreamResponse e, String taskId, long seq) {
        if (json) {
            line(ProtoJson.print(e));
            return;
        }
        String what = switch (e.getPayloadCase()) {
            case TASK -> "task " + TaskStates.label(e.getTask().getStatus().getState());
            case STATUS_UPDATE -> "status " + TaskStates.label(e.getStatusUpdate().getStatus().getState())
                    + (e.getStatusUpdate().getStatus().hasMessage()
                    ? ": " + PartText.said(e.getStatusUpdate().getStatus().getMessage()) : "");
            case ARTIFACT_UPDATE -> "artifact " + e.getArtifactUpdate().getArtifact().getArtifactId();
            case MESSAGE -> "message: " + PartText.said(e.getMessage());
            case PAYLOAD_NOT_SET -> "(empty)";
        };
        out.println(palette.dim("task " + taskId + " #" + seq) + " " + what);
        out.flush();
    }

    /** The Agent Card, marking the interface the client dials. */
    public void card(AgentCard card, AgentInterface dialed) {
        if (json) {
            line(ProtoJson.print(card));
            return;
        }
        CardText.lines(card, dialed, palette).forEach(out::println);
        out.flush();
    }

    /**
     * The stream was cut and the client subscribes again after the last event: one line, between the
     * events it falls between; on standard error under --json, so standard output stays JSON lines.
     */
    void resuming(ResumeAttempt attempt) {
        String line = "(stream cut; resuming after event " + attempt.lastEventId()
                + (attempt.attempt() == 1 ? "" : ", attempt " + attempt.attempt() + " of " + attempt.attempts()) + ")";
        PrintWriter to = json ? err : out;
        to.println(json ? line : INDENT + palette.dim(line));
        to.flush();
    }

    /** A line for people; dropped under --json so standard output stays JSON lines. */
    public void note(String text) {
        if (!json) {
            out.println(text);
            out.flush();
        }
    }

    void heading(String text) {
        note(palette.bold(text));
    }

    public Palette palette() {
        return palette;
    }

    private void artifact(String name, Artifact a) {
        List<String> lines = a.getPartsList().stream().flatMap(p -> PartText.lines(p).stream()).toList();
        row("artifact", pad(name), lines.isEmpty() ? "" : lines.get(0));
        lines.stream().skip(1).forEach(l -> out.println(CONTINUATION + l));
        if (a.getPartsList().stream().allMatch(p -> p.getContentCase() == Part.ContentCase.CONTENT_NOT_SET)) {
            out.println(CONTINUATION + palette.dim("(no content)"));
        }
    }

    private String state(TaskState s) {
        return palette.state(s, pad(TaskStates.label(s)));
    }

    private static String pad(String label) {
        return label.length() >= LABEL_WIDTH - 1 ? label + " " : label + " ".repeat(LABEL_WIDTH - label.length());
    }

    private void row(String kind, String label, String detail) {
        out.println((INDENT + palette.dim(kind + " ".repeat(KIND_WIDTH - kind.length())) + label + detail).stripTrailing());
    }

    private void field(String name, String value) {
        out.println(INDENT + palette.dim(name + " ".repeat(KIND_WIDTH - name.length())) + value);
    }

    private boolean line(String text) {
        out.println(text);
        out.flush();
        return true;
    }
}
