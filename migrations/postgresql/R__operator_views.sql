-- Views over Trestle's tables for people: keys and values as readable, typed columns. Read-only; Trestle itself
-- never uses them. A repeatable migration: `trestle migrate` (or `serve`) installs them beside the schema and
-- re-applies this file whenever it changes, so they follow every upgrade. CREATE OR REPLACE keeps views an
-- operator built on these working; a change here that renames or drops a column must drop the view first.
--
-- How the data is stored (the tables' own descriptions: COMMENT ON, V6__schema_descriptions.sql):
--   trestle_table   one row per table and account; name as created, created in 100 ns ticks since 1970
--   trestle_entity  one row per entity; ticks is the version (Timestamp and ETag derive from it);
--                   properties is {"Name": [type tag, value, position], ...}
--   Keys and string values are stored in an order-preserving text encoding so that PostgreSQL's "C" order is
--   Azure's UTF-16 order. Text without U+0000, U+0001 or characters from U+D800 up is stored unchanged, so
--   most keys read as they are; trestle_text() decodes the rest.
--
-- Typed forms, one rule: a value is a JSON number or boolean only when every JSON reader keeps it exactly
-- (Int32, Boolean); every other type is a JSON string holding its exact text: Int64 as decimal digits (Azure's
-- own JSON form for Int64: JavaScript and jq read numbers as doubles, exact only up to 2^53), Double as the
-- shortest text that reads back the same double (also NaN, Infinity, -0.0, which JSON numbers cannot hold),
-- DateTime as ISO-8601 with 7 digits, Guid in lower case, Binary as base64. For SQL arithmetic and comparisons,
-- trestle_properties has typed columns instead: bigint, double precision, boolean, timestamptz, uuid, bytea.

-- Stored text back to what the client wrote. U+0000 cannot live in PostgreSQL text and shows as U+FFFD, as does
-- a lone surrogate.
CREATE OR REPLACE FUNCTION trestle_text(stored text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  result text := '';
  i int := 1;
  n int := length(stored);
  cp int;
  unit int;
  low int;
BEGIN
  IF stored !~ '[\u0001\ue000-\U0010ffff]' THEN
    RETURN stored;
  END IF;
  WHILE i <= n LOOP
    cp := ascii(substr(stored, i, 1));
    i := i + 1;
    IF cp = 1 THEN
      result := result || CASE WHEN ascii(substr(stored, i, 1)) = 1 THEN chr(65533) ELSE chr(1) END;
      i := i + 1;
    ELSIF cp < 57344 THEN                      -- below U+E000: stored as it is
      result := result || chr(cp);
    ELSIF cp >= 59392 THEN                     -- U+E800 and up: a unit from U+E000-U+FFFF, shifted by 0x800
      result := result || chr(cp - 2048);
    ELSE                                       -- U+E000-U+E7FF: a surrogate unit; pair it up again
      unit := cp - 2048;
      low := CASE WHEN i <= n THEN ascii(substr(stored, i, 1)) - 2048 ELSE 0 END;
      IF unit < 56320 AND low BETWEEN 56320 AND 57343 THEN
        result := result || chr(65536 + (unit - 55296) * 1024 + (low - 56320));
        i := i + 1;
      ELSE
        result := result || chr(65533);
      END IF;
    END IF;
  END LOOP;
  RETURN result;
END
$$;

-- Ticks (100 ns since 1970-01-01 UTC) as a timestamptz; PostgreSQL keeps microseconds, so the seventh
-- fractional digit is dropped here (the ticks column keeps it).
CREATE OR REPLACE FUNCTION trestle_time(ticks bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT to_timestamp(0) + ((ticks - ((ticks % 10) + 10) % 10) / 10) * interval '1 microsecond'
$$;

-- The Edm type name of a stored type tag.
CREATE OR REPLACE FUNCTION trestle_edm_type(tag text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE tag
    WHEN 's' THEN 'Edm.String' WHEN 'i' THEN 'Edm.Int32' WHEN 'l' THEN 'Edm.Int64' WHEN 'd' THEN 'Edm.Double'
    WHEN 'b' THEN 'Edm.Boolean' WHEN 't' THEN 'Edm.DateTime' WHEN 'g' THEN 'Edm.Guid' WHEN 'x' THEN 'Edm.Binary'
  END
$$;

-- A stored [tag, value, position] as display text: strings decoded, DateTime as ISO-8601 with 7 digits,
-- Binary as base64 (as the Table API shows them).
CREATE OR REPLACE FUNCTION trestle_value_text(stored jsonb) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE stored->>0
    WHEN 's' THEN trestle_text(stored->>1)
    WHEN 't' THEN to_char(trestle_time((stored->>1)::bigint) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
                  || ((((stored->>1)::bigint % 10) + 10) % 10)::text || 'Z'
    WHEN 'x' THEN encode(decode(stored->>1, 'hex'), 'base64')
    ELSE stored->>1
  END
$$;

-- The properties as a flat JSON object {"Name": value}, e.g. for jq or a quick look; the typed forms as the
-- header says.
CREATE OR REPLACE FUNCTION trestle_properties_json(properties jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg(p.key,
           CASE WHEN p.value->>0 IN ('i', 'b') THEN p.value->1 ELSE to_jsonb(trestle_value_text(p.value)) END
           ORDER BY (p.value->>2)::int), '{}'::jsonb)
  FROM jsonb_each(properties) AS p
$$;

-- Tables of every account.
CREATE OR REPLACE VIEW trestle_tables AS
SELECT t.account,
       t.name AS table_name,
       trestle_time(t.created) AS created,
       t.access_policies IS NOT NULL AS has_access_policies,
       t.id AS table_id
FROM trestle_table t;

-- Entities with readable keys, Timestamp and properties. Filter on account and table_name; a filter on
-- partition_key here goes through trestle_text() and cannot use the primary key: for big tables, filter the
-- raw trestle_entity.partition_key column as sql/postgresql/examples.sql shows.
CREATE OR REPLACE VIEW trestle_entities AS
SELECT t.account,
       t.name AS table_name,
       trestle_text(e.partition_key) AS partition_key,
       trestle_text(e.row_key) AS row_key,
       trestle_time(e.ticks) AS "timestamp",
       trestle_properties_json(e.properties) AS properties,
       e.ticks,
       e.table_id
FROM trestle_entity e
JOIN trestle_table t ON t.id = e.table_id;

-- One row per property, with a typed column for each type (null unless the property has that type), so that
-- SQL can compare numbers as numbers and times as times.
CREATE OR REPLACE VIEW trestle_properties AS
SELECT t.account,
       t.name AS table_name,
       trestle_text(e.partition_key) AS partition_key,
       trestle_text(e.row_key) AS row_key,
       p.key AS name,
       trestle_edm_type(p.value->>0) AS edm_type,
       trestle_value_text(p.value) AS value_text,
       CASE WHEN p.value->>0 IN ('i', 'l') THEN (p.value->>1)::bigint END AS value_integer,
       CASE WHEN p.value->>0 = 'd' THEN (p.value->>1)::float8 END AS value_double,
       CASE WHEN p.value->>0 = 'b' THEN (p.value->>1)::boolean END AS value_boolean,
       CASE WHEN p.value->>0 = 't' THEN trestle_time((p.value->>1)::bigint) END AS value_time,
       CASE WHEN p.value->>0 = 'g' THEN (p.value->>1)::uuid END AS value_guid,
       CASE WHEN p.value->>0 = 'x' THEN decode(p.value->>1, 'hex') END AS value_binary,
       (p.value->>2)::int AS position,
       e.table_id
FROM trestle_entity e
JOIN trestle_table t ON t.id = e.table_id
CROSS JOIN LATERAL jsonb_each(e.properties) AS p;
