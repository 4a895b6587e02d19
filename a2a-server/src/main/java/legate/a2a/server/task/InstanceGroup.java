package legate.a2a.server.task;

import java.net.URI;
import java.util.Optional;

/**
 * The instances that serve one agent from one shared {@link TaskStore} (README "Several
 * instances"): which instance runs a conversation's turns, how the events another instance
 * appends reach this one's subscribers, and who fails the tasks of an instance that is gone.
 *
 * <p>A conversation (a contextId) runs where it lives: its executor, and for the bridge the coding
 * agent's process, is on the instance that holds the context's lease, and every other instance
 * sends a turn for that context there. A store that only one process can use (memory, SQLite)
 * comes with {@link #ALONE}, which costs nothing: every context runs here and no other instance
 * appends.
 */
public interface InstanceGroup extends AutoCloseable {
    /** One instance alone on its store. */
    InstanceGroup ALONE = new Alone();

    /**
     * Called once by the server after it has bound its port and before it listens: the instance
     * registers, and the tasks that were left SUBMITTED or WORKING by an instance that is gone
     * (this one's previous run included) are ended through {@code unsettled}, never those of a
     * live peer.
     */
    void join(int boundPort, UnsettledTasks unsettled);

    /**
     * Where the turns of a conversation run: empty when here, in which case the context is now
     * leased to this instance (it was free, already this instance's, or its holder was gone, whose
     * running tasks in it are failed first); otherwise the URL of the live instance that holds it.
     */
    Optional<URI> runnerElsewhere(String contextId);

    /**
     * Calls {@code appended} each time another instance has committed events of the task, and
     * once more for every watched task after the group may have missed some (a lost connection to
     * the store). Calls may come on any thread, several at once.
     */
    Watch watch(String taskId, Runnable appended);

    /**
     * The secret every instance of the group shares (at least 32 bytes), with which one vouches to
     * another for a client certificate it verified on a request it forwards; null for
     * {@link #ALONE}, which forwards nothing.
     */
    default byte[] peerKey() {
        return null;
    }

    /**
     * The URL the other instances dial this one at (its INSTANCE_URL), once {@link #join} has run;
     * empty for {@link #ALONE}. Its host is one of the names the server answers (README "Host names").
     */
    default Optional<URI> url() {
        return Optional.empty();
    }

    /** True for {@link #ALONE}: no other instance shares the store. */
    default boolean alone() {
        return false;
    }

    /** A {@link #watch}: cancel it once the subscriber has gone or the stream is over. */
    interface Watch {
        void cancel();
    }

    /** Leaves the group: this instance's leases are given up. */
    @Override
    void close();

    /** {@link #ALONE}. */
    final class Alone implements InstanceGroup {
        private static final Watch NOTHING = () -> {
        };

        private Alone() {
        }

        @Override
        public boolean alone() {
            return true;
        }

        @Override
        public void join(int boundPort, UnsettledTasks unsettled) {
            // Alone, every unsettled task was this process's previous run.
            unsettled.failAll();
        }

        @Override
        public Optional<URI> runnerElsewhere(String contextId) {
            return Optional.empty();
        }

        @Override
        public Watch watch(String taskId, Runnable appended) {
            return NOTHING;
        }

        @Override
        public void close() {
        }
    }
}
