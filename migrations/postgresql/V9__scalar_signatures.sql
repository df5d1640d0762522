-- Schema version 9: each row of the scalar store (migrations/optional/postgresql-scalar-store.sql), where the
-- database has one, gets a signature: a bigint with two bits set for each of the entity's String values of 64
-- characters or fewer. A filter's equality on a String tests the signature before it looks into the scalar
-- document, which costs several times more per row: a row whose signature lacks the value's bits cannot match
-- (a Bloom filter; other rows are decided as before, so a signature never changes an answer).

-- The signature of a stored properties document, the one home of its definition (ScalarDocument.stringBits
-- computes the same in Java, at every write): for each property "Name": ["s", text, position] whose text is 64
-- characters or fewer, the bits numbered by the first two bytes, each modulo 64, of md5(Name || U+0001 || text).
-- Versioned, not repeatable: the stored signatures were computed by it, so a change needs a migration that
-- computes them again.
CREATE OR REPLACE FUNCTION trestle_string_signature(properties jsonb) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(bit_or((1::bigint << (get_byte(h, 0) & 63)) | (1::bigint << (get_byte(h, 1) & 63))), 0)
  FROM (SELECT decode(md5(k || chr(1) || (v ->> 1)), 'hex') AS h
          FROM jsonb_each(properties) AS p(k, v)
         WHERE v ->> 0 = 's' AND length(v ->> 1) <= 64) AS strings
$$;

-- The store is built again beside the old one with the signature after the table id (fixed-width columns
-- first: a filter reads it without stepping over the keys), then takes its place, so that no row is left
-- without a signature and the table is not left with a dead copy of every row, as an UPDATE would.
DO $$
DECLARE
  kept_column text;
BEGIN
  IF to_regclass('trestle_entity_scalar') IS NULL THEN
    RETURN;
  END IF;
  CREATE TABLE trestle_entity_scalar_signed (
      table_id      BIGINT NOT NULL,
      signature     BIGINT NOT NULL,
      partition_key TEXT COLLATE "C" NOT NULL,
      row_key       TEXT COLLATE "C" NOT NULL,
      scalars       JSONB NOT NULL
  );
  -- from the entities themselves (a value too long to copy is a marker in the scalar document); an orphan
  -- scalar row (harmless, never read) is not carried over
  INSERT INTO trestle_entity_scalar_signed (table_id, signature, partition_key, row_key, scalars)
  SELECT s.table_id, trestle_string_signature(e.properties), s.partition_key, s.row_key, s.scalars
    FROM trestle_entity_scalar s
    JOIN trestle_entity e
      ON e.table_id = s.table_id AND e.partition_key = s.partition_key AND e.row_key = s.row_key;
  -- the descriptions stay those of migrations/optional/postgresql-scalar-store.sql
  EXECUTE format('COMMENT ON TABLE trestle_entity_scalar_signed IS %L',
                 obj_description('trestle_entity_scalar'::regclass, 'pg_class'));
  FOREACH kept_column IN ARRAY ARRAY['table_id', 'partition_key', 'row_key', 'scalars'] LOOP
    EXECUTE format('COMMENT ON COLUMN trestle_entity_scalar_signed.%I IS %L', kept_column,
                   col_description('trestle_entity_scalar'::regclass,
                                   (SELECT attnum FROM pg_attribute
                                     WHERE attrelid = 'trestle_entity_scalar'::regclass AND attname = kept_column)));
  END LOOP;
  COMMENT ON COLUMN trestle_entity_scalar_signed.signature IS 'trestle_string_signature(properties): two bits for each String value of 64 characters or fewer, tested by equalities on Strings before the document.';
  DROP TABLE trestle_entity_scalar;
  ALTER TABLE trestle_entity_scalar_signed RENAME TO trestle_entity_scalar;
  ALTER TABLE trestle_entity_scalar
    ADD CONSTRAINT trestle_entity_scalar_pk PRIMARY KEY (table_id, partition_key, row_key);
  ANALYZE trestle_entity_scalar;
END
$$;
