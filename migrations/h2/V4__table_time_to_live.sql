-- Time to live (an opt-in extension): whether a table's entities expire, and its default in seconds after an
-- entity's last write (null: only entities with a TrestleExpires property expire). Entities carry no new
-- column: what expires is decided from their version and properties, so a table without TTL reads as before.
ALTER TABLE trestle_table ADD COLUMN ttl_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE trestle_table ADD COLUMN default_ttl BIGINT;
