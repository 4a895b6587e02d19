-- Several instances on one database (README "Several instances"): the instances serving the agent,
-- each alive while its heartbeat is fresh, and which instance runs each conversation.

CREATE TABLE instances (
    -- INSTANCE_ID, or an id generated at each start of the process.
    id           text COLLATE "C" PRIMARY KEY,
    -- INSTANCE_URL: where the other instances send the requests of the conversations this one runs.
    url          text NOT NULL,
    -- LEASE_TTL_MS of this instance: it is gone once heartbeat_at is older than that. Kept per
    -- instance so that instances configured differently still agree on when each one is gone.
    ttl_ms       bigint NOT NULL,
    started_at   timestamptz NOT NULL DEFAULT now(),
    -- The database's clock, never the instances': clocks of different machines may disagree.
    heartbeat_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX instances_by_url ON instances (url);

-- A conversation runs where it lives: its executor (the bridge's coding agent) is on the instance
-- that holds its lease. A lease lasts as long as its instance: it expires with the heartbeat, and
-- goes with the instance's row once the instance is found gone and its running tasks are failed.
CREATE TABLE context_leases (
    context_id  text COLLATE "C" PRIMARY KEY,
    instance_id text COLLATE "C" NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    leased_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX context_leases_by_instance ON context_leases (instance_id);
