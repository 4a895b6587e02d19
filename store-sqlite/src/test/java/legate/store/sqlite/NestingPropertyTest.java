package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.RandomIds;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskQuery;
import legate.testsupport.Cleanup;
import legate.testsupport.NestingProperty;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.Role;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nesting limit's property on a real SQLite file (issue 30, defect 1): random values at and
 * past the limit go through SendMessage; what is accepted reads back equal over GetTask and, after
 * the server and the file are closed and opened again, from the store itself (load, log, listing);
 * what is past the limit is refused at input and never stored.
 */
class NestingPropertyTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    /** Echoes the caller's message (its parts and metadata) as the COMPLETED status message. */
    private static final AgentExecutor ECHO = (ctx, events) -> {
        events.task(ctx.initialTask());
        events.status(TaskState.TASK_STATE_COMPLETED, ctx.message().toBuilder().setRole(Role.ROLE_AGENT)
                .setMessageId(RandomIds.next()).setTaskId(ctx.taskId()).setContextId(ctx.contextId()).build());
    };

    static AgentCard card(int port) {
        return AgentCard.newBuilder().setName("echo").setDescription("echoes").setVersion("1")
                .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                        .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
                .build();
    }

    @Test
    void valuesAtAndPastTheLimitAreStoredAndReadBackOrRefusedAtInput(@TempDir Path dir) throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0), NestingPropertyTest::card, ECHO,
                SqliteTaskStore.open(dir), Clock.systemUTC());
        int port = cleanup.start("the echo agent", server, AgentServer::start, AgentServer::openStreams);

        List<NestingProperty.Accepted> accepted = NestingProperty.check(URI.create("http://127.0.0.1:" + port + "/"), 30_2L);
        server.close();

        try (SqliteTaskStore reopened = SqliteTaskStore.open(dir)) {
            for (NestingProperty.Accepted a : accepted) {
                StoredTask stored = reopened.load(a.taskId()).orElseThrow();
                assertThat(stored.readable()).isTrue();
                a.assertHeldBy(stored.task());
                assertThat(reopened.eventsAfter(a.taskId(), 0)).isNotEmpty();
            }
            assertThat(reopened.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 100, "", "")).tasks())
                    .hasSize(accepted.size());
        }
    }
}
