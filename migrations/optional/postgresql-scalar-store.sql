-- The scalar store (PostgreSQL), created by schema version 8 only when the database's creator chose it
-- (TableServiceBuilder.scalarStore, trestle serve|migrate --scalar-store); a database has it from then on, or never.
-- Run as one script by dev.trestle.store.internal.database.ScalarStoreMigration, not by Flyway's own scan.
--
-- The scalar store: one narrow row per entity holding its small typed values, so that a filter on properties
-- without a declared index reads this table rather than the whole entity heap (1.3 KB rows, never TOASTed).
-- bench/RESULTS.md "Unindexed filter scans: alternatives measured" measured 2 to 3.5x less CPU per row.
-- Schema version 9 adds each row's signature of its String values (migrations/postgresql/V9__scalar_signatures.sql).
--
-- No foreign key to trestle_entity: a referential check per inserted row costs ~20% of a batch insert. Every
-- write of trestle_entity writes or deletes the entity's scalar row in the same statement or transaction; an
-- orphan row is harmless (reads join to the entity), a missing or stale one would hide an entity from a filter.

-- The scalar document of a stored properties document, the one home of its definition (ScalarDocument computes
-- the same in Java): for each property "Name": [tag, value, position], the key tag || Name with the stored value
-- unchanged, except a String or Binary whose stored text is longer than 64 characters: JSON true, a marker
-- that says "too large to copy; decide on the entity's own properties".
CREATE OR REPLACE FUNCTION trestle_scalars(properties jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg((v ->> 0) || k,
           CASE WHEN v ->> 0 IN ('s', 'x') AND length(v ->> 1) > 64 THEN 'true'::jsonb ELSE v -> 1 END), '{}')
  FROM jsonb_each(properties) AS p(k, v)
$$;

CREATE TABLE trestle_entity_scalar (
    table_id      BIGINT NOT NULL,
    partition_key TEXT COLLATE "C" NOT NULL,
    row_key       TEXT COLLATE "C" NOT NULL,
    scalars       JSONB NOT NULL,
    CONSTRAINT trestle_entity_scalar_pk PRIMARY KEY (table_id, partition_key, row_key)
);

INSERT INTO trestle_entity_scalar (table_id, partition_key, row_key, scalars)
SELECT table_id, partition_key, row_key, trestle_scalars(properties) FROM trestle_entity;

COMMENT ON TABLE trestle_entity_scalar IS 'Trestle: one row per entity with its small typed values, read by filters on properties without a declared index. Written with trestle_entity in the same statement or transaction; no foreign key (an orphan row is harmless, reads join to the entity).';
COMMENT ON COLUMN trestle_entity_scalar.table_id IS 'The table (trestle_table.id), as in trestle_entity.';
COMMENT ON COLUMN trestle_entity_scalar.partition_key IS 'PartitionKey, encoded as in trestle_entity.';
COMMENT ON COLUMN trestle_entity_scalar.row_key IS 'RowKey, encoded as in trestle_entity.';
COMMENT ON COLUMN trestle_entity_scalar.scalars IS 'trestle_scalars(properties): {"<tag><Name>": value}; a String or Binary longer than 64 characters is JSON true (decide on trestle_entity.properties).';

-- Every delete of entities deletes their scalar rows (trestle_entity_scalar), whatever deleted them: the
-- Table API, batches, bulk deletes, the expiry sweep, a dropped table's cascade, trestle_delete_entity, and an
-- operator's hand-written DELETE. One set-based delete per statement (a statement trigger over the deleted
-- rows), so a delete keeps its own update count and round trips. Writes of properties set the scalar row
-- themselves, in the same statement (EntityStatements.withScalars), from the document Java computed.
CREATE OR REPLACE FUNCTION trestle_entity_scalar_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM trestle_entity_scalar s USING trestle_entity_gone g
  WHERE s.table_id = g.table_id AND s.partition_key = g.partition_key AND s.row_key = g.row_key;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER trestle_entity_scalar_deleted AFTER DELETE ON trestle_entity
REFERENCING OLD TABLE AS trestle_entity_gone FOR EACH STATEMENT EXECUTE FUNCTION trestle_entity_scalar_deleted();

-- A truncate of the entities (by hand: Trestle never truncates) empties the scalar store too, so that no scalar
-- row is ever left without its entity: inserts of new entities insert theirs without a conflict clause.
CREATE OR REPLACE FUNCTION trestle_entity_scalar_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE trestle_entity_scalar;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER trestle_entity_scalar_truncated AFTER TRUNCATE ON trestle_entity
FOR EACH STATEMENT EXECUTE FUNCTION trestle_entity_scalar_truncated();
