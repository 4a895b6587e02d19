-- A future version whose second statement fails: the first must not stay behind.
CREATE TABLE half_done (id INTEGER PRIMARY KEY);
CREATE TABLE tasks (id TEXT);
