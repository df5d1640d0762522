-- Scaling out on Citus: spread entities over worker nodes by partition key.
--
-- NOT RUN IN TRESTLE'S TESTS (there is no Citus cluster here); written against the Citus 12 documentation.
-- Try it on a staging cluster first. Run on the coordinator, in the schema Trestle uses, after
-- `trestle migrate` has created the tables and before loading data (distributing a filled table copies it).
--
-- Why this layout works: every statement of one Trestle operation, and every statement of one entity-group
-- transaction, touches a single (table, PartitionKey). With trestle_entity distributed by partition_key, all
-- entities of one partition of one table live on one shard, so each operation and each transaction runs on
-- one worker; queries across partitions fan out to all shards, as in Azure.
--
-- Citus distributes by one column. partition_key alone keeps every (table, PartitionKey) together; the cost is
-- that equal partition keys of different tables also share a shard (a key like 'default' used by every table
-- makes a hot shard). To distribute by the pair instead, a later migration would add a stored column holding
-- both and make it part of the primary key.

-- Small, read on every request: copied to every node.
SELECT create_reference_table('trestle_table');
SELECT create_reference_table('trestle_service_properties');

-- The entities, hash-distributed. The primary key (table_id, partition_key, row_key) contains the distribution
-- column, as Citus requires; the foreign key to the reference table trestle_table is allowed.
SELECT create_distributed_table('trestle_entity', 'partition_key', shard_count => 32);

-- Flyway's history table (trestle_schema_history) stays a plain table on the coordinator.

-- Check the placement: shards per node.
SELECT nodename, count(*) AS shards
FROM citus_shards
WHERE table_name = 'trestle_entity'::regclass
GROUP BY nodename;
