-- Trestle schema for H2. H2 compares VARCHAR values by UTF-16 code units (String.compareTo) unless a
-- collation is set, which is exactly Azure's ordinal key order; keys are stored as they are.

-- The catalog of tables, per storage account. name keeps the casing given at creation; name_key is its
-- lower-cased form and makes names unique case-insensitively.
CREATE TABLE trestle_table (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account         VARCHAR NOT NULL,
    name_key        VARCHAR NOT NULL,
    name            VARCHAR NOT NULL,
    created         BIGINT NOT NULL,           -- 100 ns ticks since 1970-01-01 UTC
    access_policies VARCHAR,                   -- JSON array of stored access policies, null when none
    CONSTRAINT trestle_table_name_uq UNIQUE (account, name_key)
);
CREATE INDEX trestle_table_by_name ON trestle_table (account, name);

-- Entities. properties maps each user property name to [type tag, value, position] (see PropertyCodec),
-- as JSON text; filters read it through the Java functions registered in R__filter_functions.sql.
CREATE TABLE trestle_entity (
    table_id      BIGINT NOT NULL REFERENCES trestle_table (id) ON DELETE CASCADE,
    partition_key VARCHAR NOT NULL,
    row_key       VARCHAR NOT NULL,
    ticks         BIGINT NOT NULL,
    properties    VARCHAR NOT NULL,
    CONSTRAINT trestle_entity_pk PRIMARY KEY (table_id, partition_key, row_key)
);

-- The service-properties XML document of each account, stored as given (the server interprets it).
CREATE TABLE trestle_service_properties (
    account  VARCHAR PRIMARY KEY,
    document VARCHAR NOT NULL
);
