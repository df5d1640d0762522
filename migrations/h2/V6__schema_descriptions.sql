-- Descriptions of Trestle's tables and columns (INFORMATION_SCHEMA.TABLES.REMARKS, COLUMNS.REMARKS), as on
-- PostgreSQL: the schema is an interface operators read. Later migrations describe the tables they add.

COMMENT ON TABLE trestle_table IS 'Trestle: one row per table of each storage account. Written only by Trestle (the API, trestle migrate); see sql/README.md.';
COMMENT ON COLUMN trestle_table.id IS 'Internal id, referenced by trestle_entity.table_id and trestle_property_index.table_id.';
COMMENT ON COLUMN trestle_table.account IS 'Storage account name.';
COMMENT ON COLUMN trestle_table.name_key IS 'The table name in lower case: table names are unique per account case-insensitively.';
COMMENT ON COLUMN trestle_table.name IS 'The table name as given at creation.';
COMMENT ON COLUMN trestle_table.created IS 'Creation time in 100 ns ticks since 1970-01-01 UTC.';
COMMENT ON COLUMN trestle_table.access_policies IS 'Stored access policies (signed identifiers) as a JSON array; null when none.';

COMMENT ON TABLE trestle_entity IS 'Trestle: one row per entity. Written by Trestle; a malformed row makes reads of it fail with InternalError naming the row. See sql/README.md.';
COMMENT ON COLUMN trestle_entity.table_id IS 'The table (trestle_table.id).';
COMMENT ON COLUMN trestle_entity.partition_key IS 'PartitionKey in Trestle''s order-preserving text encoding (on PostgreSQL; as it is on H2); trestle_text() decodes it.';
COMMENT ON COLUMN trestle_entity.row_key IS 'RowKey, encoded as partition_key is.';
COMMENT ON COLUMN trestle_entity.ticks IS 'The entity''s version in 100 ns ticks since 1970-01-01 UTC: its Timestamp, and its ETag derives from it. Every write must increase it.';
COMMENT ON COLUMN trestle_entity.properties IS 'The user properties as a JSON object {"Name": [type tag, value, position]}; tags s i l d b t g x are String Int32 Int64 Double Boolean DateTime (ticks) Guid Binary (hex).';

COMMENT ON TABLE trestle_service_properties IS 'Trestle: the service-properties XML document (CORS, logging, metrics) of each account, as set through the API.';
COMMENT ON COLUMN trestle_service_properties.account IS 'Storage account name.';
COMMENT ON COLUMN trestle_service_properties.document IS 'The StorageServiceProperties XML document as given.';

COMMENT ON TABLE trestle_property_index IS 'Trestle: declared property indexes (trestle index create, TableService.createIndex), one row per table, property and kind of value.';
COMMENT ON COLUMN trestle_property_index.table_id IS 'The table (trestle_table.id).';
COMMENT ON COLUMN trestle_property_index.property IS 'The property name.';
COMMENT ON COLUMN trestle_property_index.value_kind IS 'The kind of value indexed: number, string, datetime, boolean, guid, binary or timestamp.';
COMMENT ON COLUMN trestle_property_index.edm_type IS 'The type it was declared with, e.g. Edm.Int32.';
COMMENT ON COLUMN trestle_property_index.index_name IS 'The database index built for it (PostgreSQL; H2 keeps the declaration only).';
COMMENT ON COLUMN trestle_property_index.state IS 'ready, or building (an interrupted build stays so until created again or dropped); queries use ready indexes only.';
COMMENT ON COLUMN trestle_property_index.declared IS 'Declaration time in 100 ns ticks since 1970-01-01 UTC.';
