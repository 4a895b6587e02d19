package legate.cli;

import java.util.List;
import legate.cli.client.ClientExit;
import lf.a2a.v1.ListTaskPushNotificationConfigsResponse;
import lf.a2a.v1.TaskPushNotificationConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code legate client push list|get|delete}: a task's push notification webhooks (A2A §3.1.8-3.1.10),
 * through the same connection, credentials and output as the other client subcommands.
 */
@Command(name = "push", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class,
        description = "Manage a task's push notification webhooks (register one with: legate client ask --push URL).")
final class ClientPushCommand {
    @ParentCommand
    ClientCommand client;

    @Command(name = "list", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class,
            description = "List the task's webhooks (ListTaskPushNotificationConfigs).")
    int list(@Parameters(paramLabel = "TASK_ID", description = "The task id.") String taskId,
             @Option(names = "--page-token", paramLabel = "TOKEN", description = "The page after the one that gave this token.")
             String pageToken) {
        return client.run((a2a, printer) -> {
            ListTaskPushNotificationConfigsResponse page = a2a.listPushConfigs(taskId, pageToken == null ? "" : pageToken);
            printer.pushConfigs(page.getConfigsList(), page.getNextPageToken());
            return ClientExit.OK.code();
        });
    }

    @Command(name = "get", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class,
            description = "Show one of the task's webhooks (GetTaskPushNotificationConfig).")
    int get(@Parameters(index = "0", paramLabel = "TASK_ID", description = "The task id.") String taskId,
            @Parameters(index = "1", paramLabel = "CONFIG_ID", description = "The configuration's id (see list).") String id) {
        return client.run((a2a, printer) -> {
            printer.pushConfigs(List.of(a2a.getPushConfig(taskId, id)), "");
            return ClientExit.OK.code();
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class,
            description = "Stop a webhook's deliveries and remove it (DeleteTaskPushNotificationConfig); without"
                    + " CONFIG_ID, every webhook of the task.")
    int delete(@Parameters(index = "0", paramLabel = "TASK_ID", description = "The task id.") String taskId,
               @Parameters(index = "1", arity = "0..1", paramLabel = "CONFIG_ID", description = "The configuration's id.")
               String id) {
        return client.run((a2a, printer) -> {
            List<String> ids = id != null ? List.of(id)
                    : a2a.listPushConfigs(taskId, "").getConfigsList().stream().map(TaskPushNotificationConfig::getId).toList();
            for (String each : ids) {
                a2a.deletePushConfig(taskId, each);
                printer.note("deleted push configuration " + each + " of task " + taskId);
            }
            if (ids.isEmpty()) {
                printer.note("task " + taskId + " has no push configuration");
            }
            return ClientExit.OK.code();
        });
    }
}
