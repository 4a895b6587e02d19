-- Room for ownership: the principal a task or a conversation belongs to, once requests are
-- authenticated. NULL until then, and for what was stored before.
ALTER TABLE tasks ADD COLUMN owner text;
ALTER TABLE contexts ADD COLUMN owner text;
