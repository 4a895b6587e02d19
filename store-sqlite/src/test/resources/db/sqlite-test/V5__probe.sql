-- A future version, for the upgrade and refusal tests: a column and a table a later Legate might add.
ALTER TABLE tasks ADD COLUMN probe_note TEXT NOT NULL DEFAULT '';
CREATE TABLE probe (id INTEGER PRIMARY KEY);
