-- Several instances on one database (README "Several instances"): the secret they share, with which
-- one instance vouches to another for the client certificate (mutual TLS) of a request it forwards.
-- One row, made by the first instance that needs it; whoever can read it can read the tasks too.
CREATE TABLE peer_key (
    id  smallint PRIMARY KEY CHECK (id = 1),
    key bytea NOT NULL CHECK (length(key) >= 32)
);
