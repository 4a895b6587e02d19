-- A task's events of one batch in one row. Profiled under 64 concurrent blocking SendMessage (a
-- task of 4-5 events each), the writer spent about 11 of its 55-61 us a request on a row per event.
--
-- seq is now the row's LAST sequence number, so a read after n selects the rows with seq > n and
-- drops the head of the first. first_seq is the row's first, NULL when the row holds exactly one
-- event: its event column is then the plain StreamResponse encoding, as every row written before
-- this version is, so they read unchanged. A row with first_seq holds the encoding of
-- repeated StreamResponse events = 1 (EventChunk).
--
-- Why a rowid table now, with the key in an index beside it: a WITHOUT ROWID table keeps at most
-- about 1,000 bytes of a row on its page (a quarter of it, as an index does) and puts the rest on
-- an overflow page of its own. A turn's chunk is 1-2 KB, so every chunk took a 4 KB overflow page:
-- the events took three times their size in the file and in the write-ahead log. A rowid table
-- keeps up to about 4,000 bytes of a row in place; the index entry is two integers.
CREATE TABLE events_v4 (
    task_key  INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    first_seq INTEGER,
    event     BLOB    NOT NULL
);
INSERT INTO events_v4 (task_key, seq, first_seq, event) SELECT task_key, seq, NULL, event FROM events ORDER BY task_key, seq;
DROP TABLE events;
ALTER TABLE events_v4 RENAME TO events;
CREATE UNIQUE INDEX events_by_task ON events (task_key, seq);

-- Every ListTasks filters on the owner (tasks_by_owner) or the context (tasks_by_context), and
-- retention walks the owner index owner by owner: this one only cost every status change an index
-- write (about 5 us a request, profiled so).
DROP INDEX tasks_by_status_time;
