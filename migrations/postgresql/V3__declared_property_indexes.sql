-- Declared property indexes: one row per (table, property, kind of value) that an operator or embedder declared
-- (trestle index create, TableService.createIndex). Each names a partial expression index on trestle_entity over
-- that table's rows (built with CREATE INDEX CONCURRENTLY); state says whether it is built ('ready') or being
-- built ('building': a build that was interrupted stays so until created again or dropped). Queries read
-- through ready indexes only; the answers are the same either way.
CREATE TABLE trestle_property_index (
    table_id    BIGINT NOT NULL REFERENCES trestle_table (id) ON DELETE CASCADE,
    property    TEXT COLLATE "C" NOT NULL,
    value_kind  TEXT COLLATE "C" NOT NULL,   -- number, string, datetime, boolean, guid, binary, timestamp
    edm_type    TEXT COLLATE "C" NOT NULL,   -- the type it was declared with, e.g. Edm.Int32
    index_name  TEXT COLLATE "C" NOT NULL,
    state       TEXT COLLATE "C" NOT NULL,
    declared    BIGINT NOT NULL,             -- 100 ns ticks since 1970-01-01 UTC
    CONSTRAINT trestle_property_index_pk PRIMARY KEY (table_id, property, value_kind),
    CONSTRAINT trestle_property_index_name_uq UNIQUE (index_name)
);
