-- Push notifications (README "Push notifications"): the webhooks registered on tasks, and how far
-- each one's deliveries got, so that a restart resumes them. Not a foreign key to tasks: an inline
-- configuration is stored before its new task's first event has been committed (group commit);
-- retention deletes a task's rows with the task.
CREATE TABLE push_configs (
    task_id          text COLLATE "C" NOT NULL,
    id               text COLLATE "C" NOT NULL,
    -- Registration order, which List answers in; a replaced configuration keeps its place.
    position         bigserial NOT NULL,
    -- The protobuf encoding of lf.a2a.v1.TaskPushNotificationConfig.
    config           bytea  NOT NULL,
    -- The last event of the task done with for this webhook: the ones after it are pending.
    delivered_seq    bigint NOT NULL,
    -- The attempts of the first pending event, and when it was first tried.
    attempts         integer NOT NULL,
    first_attempt    timestamptz,
    PRIMARY KEY (task_id, id)
);
