-- H2 gives a foreign key an index of its own, and the primary key's index a generated name. With two indexes
-- on table_id to choose from and row statistics sampled from the first rows only, H2's planner sometimes reads
-- a whole table's entities through the wrong one (a partition query then scans the table). Rebuild the entity
-- table with its key as a unique index under a fixed name, which the store's queries name (USE INDEX). The
-- unique index is the key (duplicates fail with SQLState 23505, as with a primary key).
CREATE TABLE trestle_entity_v2 (
    table_id      BIGINT NOT NULL,
    partition_key VARCHAR NOT NULL,
    row_key       VARCHAR NOT NULL,
    ticks         BIGINT NOT NULL,
    properties    VARCHAR NOT NULL
);
INSERT INTO trestle_entity_v2 (table_id, partition_key, row_key, ticks, properties)
    SELECT table_id, partition_key, row_key, ticks, properties FROM trestle_entity;
DROP TABLE trestle_entity;
ALTER TABLE trestle_entity_v2 RENAME TO trestle_entity;
CREATE UNIQUE INDEX trestle_entity_key ON trestle_entity (table_id, partition_key, row_key);
ALTER TABLE trestle_entity ADD CONSTRAINT trestle_entity_table_fk
    FOREIGN KEY (table_id) REFERENCES trestle_table (id) ON DELETE CASCADE;
