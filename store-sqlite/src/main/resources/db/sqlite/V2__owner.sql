-- Ownership (README "Security"): the principal each task and conversation belongs to.
-- tasks.owner is the principal's name, '' for the anonymous caller of a server without
-- authentication; tasks stored before this version were all the anonymous caller's.
ALTER TABLE tasks ADD COLUMN owner TEXT NOT NULL DEFAULT '';
-- contexts.owner: the principal that claimed the conversation by naming its contextId first;
-- NULL for a row kept only for an executor's state (its tasks then say whose it is).
ALTER TABLE contexts ADD COLUMN owner TEXT;
-- ListTasks lists the caller's own tasks, newest first.
CREATE INDEX tasks_by_owner ON tasks (owner, status_seconds DESC, status_nanos DESC, id);
