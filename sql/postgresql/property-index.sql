-- Optional: a GIN index on the entity properties, for $filter equalities on properties other than the keys.
--
--   psql "$DATABASE_URL" -f sql/postgresql/property-index.sql
--
-- Run it in the schema that holds Trestle's tables (the connection's current schema, as for `trestle migrate`).
-- CONCURRENTLY builds the index without blocking writes; it cannot run inside a transaction block, and a build
-- that fails leaves an INVALID index behind, which Trestle ignores: drop it and run this file again.
--
-- What it speeds up: queries whose filter requires, at its top level (joined by `and`, not under `or` or
-- `not`), a property to equal a String, Guid, Binary, Boolean, Int64 or DateTime value, e.g.
-- `Price gt 990 and Category eq 'c7'`. Without the index PostgreSQL reads every entity of the key range the
-- filter gives (the whole table when it names no keys); with it, only the entities holding the value, which
-- it then sorts into key order. The fewer entities hold the value, the larger the gain: on 20,000 entities a
-- value held by one in ten made such a query about three times faster. A value held by most entities gains
-- nothing. Int32 and Double equalities and range comparisons do not use the index.
--
-- What it costs: disk, about a fifth of the entity table's size, and writes: every insert, update and merge
-- also updates the index (batch inserts ran about 40% slower in our measurements; see bench/RESULTS.md).
--
-- Trestle looks for the index when it starts and again every minute, so servers pick up an index created or
-- dropped while they run within a minute, without a restart. The answers are the same with or without it.
--
-- To drop it:
--
--   DROP INDEX CONCURRENTLY IF EXISTS trestle_entity_properties_gin;

CREATE INDEX CONCURRENTLY IF NOT EXISTS trestle_entity_properties_gin
    ON trestle_entity USING gin (properties jsonb_path_ops);
