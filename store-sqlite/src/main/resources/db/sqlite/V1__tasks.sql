-- The task store's first schema. A task row is the task after its latest event (its protobuf
-- encoding) beside the few fields ListTasks filters and sorts on; events is each task's log.
--
-- Why an integer key beside the id: task and context ids are random UUIDs, and every structure
-- ordered by one takes each write on a random page of the file (a 4 KB page written to the log
-- per task per commit). Rows and events ordered by the key land where the newest tasks are, a few
-- pages per commit for many tasks; only the id and context indexes take a random page, once per task.

CREATE TABLE tasks (
    key            INTEGER PRIMARY KEY,
    id             TEXT    NOT NULL UNIQUE,
    context_id     TEXT    NOT NULL,
    state          TEXT    NOT NULL,
    -- The status time as protobuf keeps it (normalized): sorting on both equals sorting on the instant.
    status_seconds INTEGER NOT NULL,
    status_nanos   INTEGER NOT NULL,
    last_seq       INTEGER NOT NULL,
    task           BLOB    NOT NULL
);

-- ListTasks: newest status first, the id breaking ties; retention reads it from the old end.
CREATE INDEX tasks_by_status_time ON tasks (status_seconds DESC, status_nanos DESC, id);
-- ListTasks within a conversation: its tasks, then sorted (a context holds few); never rewritten.
CREATE INDEX tasks_by_context ON tasks (context_id);
-- The runs a restart interrupted. Partial: a turn committed whole never enters it.
CREATE INDEX tasks_unsettled ON tasks (key) WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING');

CREATE TABLE events (
    task_key INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    event    BLOB    NOT NULL,
    PRIMARY KEY (task_key, seq)
) WITHOUT ROWID;

CREATE TABLE contexts (
    context_id TEXT NOT NULL PRIMARY KEY,
    state      TEXT NOT NULL
) WITHOUT ROWID;
