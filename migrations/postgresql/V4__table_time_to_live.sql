-- Time to live (an opt-in extension): whether a table's entities expire, and its default in seconds after an
-- entity's last write (null: only entities with a TrestleExpires property expire). Entities carry no new
-- column: what expires is decided from their version and properties, so a table without TTL reads as before.
ALTER TABLE trestle_table ADD COLUMN ttl_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE trestle_table ADD COLUMN default_ttl BIGINT;
COMMENT ON COLUMN trestle_table.ttl_enabled IS 'Time to live (an extension): whether the table''s entities expire. Expired entities are absent to every read and removed later by the sweep.';
COMMENT ON COLUMN trestle_table.default_ttl IS 'Seconds after an entity''s last write at which it expires, unless it has a TrestleExpires property; null: only entities with that property expire.';
