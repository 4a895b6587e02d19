-- A migration only a later Legate would have: SchemaTest applies it to make a database that
-- this build must refuse to open.
ALTER TABLE tasks ADD COLUMN priority integer;
