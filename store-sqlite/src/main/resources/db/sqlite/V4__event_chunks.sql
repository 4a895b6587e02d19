-- A task's events of one batch in one row: profiled under 64 concurrent blocking SendMessage
-- (a task of 4 events each), the writer spent about 11 of its 55-61 us a request on one row per event.
-- seq is now the row's LAST sequence number, so
-- a read after n selects the rows with seq > n and drops the head of the first; first_seq is the
-- row's first, NULL when the row holds exactly one event: its event column is then the plain
-- StreamResponse encoding, as every row written before this version is, so they read unchanged.
-- A row with first_seq holds the encoding of repeated StreamResponse events = 1 (EventChunk).
ALTER TABLE events ADD COLUMN first_seq INTEGER;

-- Every ListTasks filters on the owner (tasks_by_owner) and retention walks that index owner by
-- owner: this one only cost every status change an index write (~5 us per request, profiled so).
DROP INDEX tasks_by_status_time;
