-- Declared property indexes (see the PostgreSQL migration of the same version). H2 keeps the declarations,
-- so that a database copied to PostgreSQL or a later H2 build keeps them, but builds no index: H2 has no
-- expression or partial indexes, and queries scan as before.
CREATE TABLE trestle_property_index (
    table_id    BIGINT NOT NULL REFERENCES trestle_table (id) ON DELETE CASCADE,
    property    VARCHAR NOT NULL,
    value_kind  VARCHAR NOT NULL,
    edm_type    VARCHAR NOT NULL,
    index_name  VARCHAR NOT NULL,
    state       VARCHAR NOT NULL,
    declared    BIGINT NOT NULL,
    CONSTRAINT trestle_property_index_pk PRIMARY KEY (table_id, property, value_kind),
    CONSTRAINT trestle_property_index_name_uq UNIQUE (index_name)
);
