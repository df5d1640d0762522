-- Trestle schema for PostgreSQL.
-- Key columns use COLLATE "C" in the table definition so that the primary-key index itself is in binary
-- order, whatever the database's default collation: range filters on keys stay index range scans.
-- Keys (and string property values) are stored through an order-preserving encoding that makes code-point
-- order equal UTF-16 code-unit order (see UnitOrderText), so "C" order is exactly Azure's ordinal order.

-- The catalog of tables, per storage account. name keeps the casing given at creation; name_key is its
-- lower-cased form and makes names unique case-insensitively.
CREATE TABLE trestle_table (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account         TEXT COLLATE "C" NOT NULL,
    name_key        TEXT COLLATE "C" NOT NULL,
    name            TEXT COLLATE "C" NOT NULL,
    created         BIGINT NOT NULL,           -- 100 ns ticks since 1970-01-01 UTC
    access_policies TEXT,                      -- JSON array of stored access policies, null when none
    CONSTRAINT trestle_table_name_uq UNIQUE (account, name_key)
);
CREATE INDEX trestle_table_by_name ON trestle_table (account, name);

-- Entities. properties maps each user property name to [type tag, value, position] (see PropertyCodec).
-- ticks is the version: Timestamp and ETag derive from it. A later scale-out (Citus) can distribute this
-- table by partition_key: every statement of one operation or transaction touches one (table, PartitionKey).
CREATE TABLE trestle_entity (
    table_id      BIGINT NOT NULL REFERENCES trestle_table (id) ON DELETE CASCADE,
    partition_key TEXT COLLATE "C" NOT NULL,
    row_key       TEXT COLLATE "C" NOT NULL,
    ticks         BIGINT NOT NULL,
    properties    JSONB NOT NULL,
    CONSTRAINT trestle_entity_pk PRIMARY KEY (table_id, partition_key, row_key)
);

-- The service-properties XML document of each account, stored as given (the server interprets it).
CREATE TABLE trestle_service_properties (
    account  TEXT COLLATE "C" PRIMARY KEY,
    document TEXT NOT NULL
);
