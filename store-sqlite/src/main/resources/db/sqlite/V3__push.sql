-- Push notifications (README "Push notifications"): the webhooks registered on tasks, and how far
-- each one's deliveries got, so that a restart resumes them. A row goes with its task (retention).
-- config is the protobuf encoding of lf.a2a.v1.TaskPushNotificationConfig; the rowid keeps the
-- order of registration, which List answers in (a replaced configuration keeps its place).
CREATE TABLE push_configs (
    task_id          TEXT    NOT NULL,
    id               TEXT    NOT NULL,
    config           BLOB    NOT NULL,
    -- The last event of the task done with for this webhook: the ones after it are pending.
    delivered_seq    INTEGER NOT NULL,
    -- The attempts of the first pending event, and when it was first tried (ms since the epoch).
    attempts         INTEGER NOT NULL,
    first_attempt_ms INTEGER,
    UNIQUE (task_id, id)
);
