-- The task store: each task as it stands after its latest event, its event log, and what an
-- executor keeps per conversation. Read legate.store.postgres.PostgresTaskStore before changing
-- a column: ListTasks must page exactly as the in-memory store does.

CREATE TABLE tasks (
    -- COLLATE "C": ids sort by their code points, as the in-memory store's String order does, and
    -- never by a locale that could differ from one server to the next.
    id             text COLLATE "C" PRIMARY KEY,
    context_id     text COLLATE "C" NOT NULL,
    -- The TaskState enum's number in a2a.proto (1 SUBMITTED ... 8 AUTH_REQUIRED).
    state          integer NOT NULL,
    -- The status timestamp as the protobuf Timestamp holds it: timestamptz keeps microseconds, and
    -- two tasks a few hundred nanoseconds apart must still sort as they do in memory.
    status_seconds bigint  NOT NULL,
    status_nanos   integer NOT NULL,
    -- The sequence number of the task's latest event: the next append must carry last_seq + 1.
    last_seq       bigint  NOT NULL,
    -- The protobuf encoding of lf.a2a.v1.Task.
    task           bytea   NOT NULL
);

-- ListTasks: newest status first, id breaking ties, optionally within one conversation.
CREATE INDEX tasks_by_status_time ON tasks (status_seconds DESC, status_nanos DESC, id);
CREATE INDEX tasks_by_context ON tasks (context_id, status_seconds DESC, status_nanos DESC, id);
-- The runs a restart interrupted: SUBMITTED (1) or WORKING (2).
CREATE INDEX tasks_unsettled ON tasks (id) WHERE state IN (1, 2);
-- Retention: terminal tasks (COMPLETED 3, FAILED 4, CANCELED 5, REJECTED 7) by age.
CREATE INDEX tasks_terminal_by_age ON tasks (status_seconds, status_nanos) WHERE state IN (3, 4, 5, 7);

CREATE TABLE events (
    task_id text COLLATE "C" NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    seq     bigint NOT NULL,
    -- The protobuf encoding of lf.a2a.v1.StreamResponse, as it was delivered to the task's streams.
    event   bytea  NOT NULL,
    PRIMARY KEY (task_id, seq)
);

CREATE TABLE contexts (
    context_id text COLLATE "C" PRIMARY KEY,
    state      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
