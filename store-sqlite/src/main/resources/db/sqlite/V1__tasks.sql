-- The task store's first schema. A task row is the task after its latest event (the protobuf
-- encoding), beside the few fields ListTasks filters and sorts on; events is each task's log.

CREATE TABLE tasks (
    id             TEXT    NOT NULL PRIMARY KEY,
    context_id     TEXT    NOT NULL,
    state          TEXT    NOT NULL,
    -- The status time as protobuf keeps it (normalized): sorting on both equals sorting on the instant.
    status_seconds INTEGER NOT NULL,
    status_nanos   INTEGER NOT NULL,
    last_seq       INTEGER NOT NULL,
    task           BLOB    NOT NULL
) WITHOUT ROWID;

-- ListTasks, newest status first, the id breaking ties: across all tasks and within a context.
CREATE INDEX tasks_by_status_time ON tasks (status_seconds DESC, status_nanos DESC, id);
CREATE INDEX tasks_by_context_status_time ON tasks (context_id, status_seconds DESC, status_nanos DESC, id);
-- The runs a restart interrupted (state SUBMITTED or WORKING), and retention (terminal states, oldest first).
CREATE INDEX tasks_by_state_status_time ON tasks (state, status_seconds, status_nanos);

CREATE TABLE events (
    task_id TEXT    NOT NULL,
    seq     INTEGER NOT NULL,
    event   BLOB    NOT NULL,
    PRIMARY KEY (task_id, seq)
) WITHOUT ROWID;

CREATE TABLE contexts (
    context_id TEXT NOT NULL PRIMARY KEY,
    state      TEXT NOT NULL
) WITHOUT ROWID;
