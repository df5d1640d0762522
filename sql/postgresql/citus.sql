-- Scaling out on Citus: entities spread over worker nodes by partition key; the catalogue copied to every node.
--
-- NOT RUN IN TRESTLE'S TESTS: there is no Citus cluster here. Reviewed against the Citus documentation (creating
-- distributed and reference tables, co-location, the foreign keys and unique constraints Citus allows, multi-shard
-- modifications, SQL support for cross-node queries); what the tests do check is that every statement Trestle
-- sends to write or lock entities names one partition key by equality, and that no transaction writes two
-- partitions (PartitionConfinement, run under every PostgreSQL test). Try it on a staging cluster first; the
-- README's "Scaling out" section says what is known to work and what is not.
--
-- Run on the coordinator, as the owner of Trestle's tables, in the schema Trestle uses, after `trestle migrate`
-- (schema version 3). Order matters: a foreign key from a distributed table may only point at a reference table,
-- so the catalogue becomes one before the entities are distributed.
--
-- Distribution column: partition_key. Citus distributes by one column; (table, PartitionKey) is two. Every
-- statement of an operation and of an entity-group transaction carries partition_key = ? (and its table), so Citus
-- routes each to one shard, where PostgreSQL's own transaction, locks and constraints apply unchanged. The cost:
-- equal partition keys of different tables share a shard, so a key every table uses ('', 'default', a date)
-- concentrates on one shard. The primary key (table_id, partition_key, row_key) contains the distribution column,
-- as Citus requires of primary keys and unique constraints.

-- The catalogue: small, read by every operation (the table id, in the statement itself), written rarely. A
-- reference table is one shard copied to every node, joinable from any shard and written with two-phase commit.
SELECT create_reference_table('trestle_table');
SELECT create_reference_table('trestle_service_properties');
-- Declared property indexes (schema version 3): references trestle_table, so a reference table too (a foreign
-- key between two reference tables is allowed).
SELECT create_reference_table('trestle_property_index');

-- The entities, hash-distributed by partition key. The foreign key to trestle_table (ON DELETE CASCADE) is one
-- Citus allows: distributed table to reference table. Deleting a table deletes its catalogue row and cascades to
-- the entity shards of every node in one distributed transaction.
SELECT create_distributed_table('trestle_entity', 'partition_key', shard_count => 64);
-- The scalar store (schema version 7): one row per entity, keyed as the entity, so co-located with it. Not
-- verified on a cluster: writes set it in a data-modifying CTE of the same partition, which Citus runs on one
-- shard when both tables are co-located; deletes remove it through a statement trigger on trestle_entity with a
-- transition table (R__entity_scalars.sql), which Citus does not run on distributed tables: there, drop that
-- trigger and delete scalar rows in the same CTE form before relying on it.
SELECT create_distributed_table('trestle_entity_scalar', 'partition_key', colocate_with => 'trestle_entity');

-- trestle_schema_history (Flyway's) stays a plain table on the coordinator; later `trestle migrate` runs there,
-- and Citus propagates the DDL of distributed and reference tables to the workers. A later migration that adds a
-- table referencing trestle_table makes it a reference table the same way; one holding entities or anything per
-- partition distributes it by partition_key, co-located: create_distributed_table(..., colocate_with =>
-- 'trestle_entity').

-- On a live deployment with many entities, create_distributed_table blocks writes to trestle_entity while it
-- copies the rows to the workers. Citus 11.2 and later can do it without blocking writes (outside a transaction block):
--   SELECT create_distributed_table_concurrently('trestle_entity', 'partition_key', shard_count => 64);

-- Placement: shards and bytes per node.
SELECT nodename, count(*) AS shards, pg_size_pretty(sum(shard_size)) AS size
FROM citus_shards
WHERE table_name = 'trestle_entity'::regclass
GROUP BY nodename
ORDER BY nodename;

-- Hot partition keys (the shard a key lands on is get_shard_id_for_distribution_column('trestle_entity', key)):
--   SELECT partition_key, count(*) FROM trestle_entity GROUP BY partition_key ORDER BY 2 DESC LIMIT 20;
