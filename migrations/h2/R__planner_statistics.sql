-- H2 2.3's planner picks the index of an UPDATE, DELETE or MERGE from column statistics, and not the one its
-- conditions match best (h2database issue 4161, fixed after 2.3.232). Until a table is analyzed (H2 does so
-- after 2,000 changed rows) every column has the default selectivity 50, with which the writes of one entity
-- choose the foreign key's index on table_id over trestle_entity_key: each write of an entity then reads
-- every entity of its table (half-megabyte entities: seconds per write). Reads name the key index (USE INDEX);
-- writes cannot, so table_id starts with the selectivity of a catalog with few tables, under which H2 picks
-- the key index. ANALYZE, automatic or not, replaces it with measured figures, which pick the key index too
-- unless a table holds fewer than about three entities on average. Repeatable: applied whenever this changes.
ALTER TABLE trestle_entity ALTER COLUMN table_id SELECTIVITY 1;
