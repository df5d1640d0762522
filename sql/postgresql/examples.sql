-- Example queries for operators. Read-only; each runs as it is (the names are examples: devstoreaccount1,
-- the table orders, the partition customer-42). The first ones read the views that the migrations install
-- (migrations/postgresql/R__operator_views.sql).

-- Tables of one account, newest first.
SELECT table_name, created
FROM trestle_tables
WHERE account = 'devstoreaccount1'
ORDER BY created DESC;

-- Entity count per table (a full scan per table: fine for a look, slow on very large tables; see the
-- estimate after it).
SELECT t.account, t.table_name, count(e.*) AS entities
FROM trestle_tables t
LEFT JOIN trestle_entity e ON e.table_id = t.table_id
GROUP BY t.account, t.table_name
ORDER BY entities DESC;

-- Estimated rows and size on disk of all entities together, from the statistics (instant).
SELECT c.reltuples::bigint AS estimated_entities,
       pg_size_pretty(pg_total_relation_size(c.oid)) AS total_size
FROM pg_class c
WHERE c.oid = 'trestle_entity'::regclass;

-- The biggest partitions of one table: hot partitions limit throughput in Azure and are worth knowing here.
SELECT trestle_text(e.partition_key) AS partition_key, count(*) AS entities
FROM trestle_entity e
JOIN trestle_table t ON t.id = e.table_id
WHERE t.account = 'devstoreaccount1' AND t.name_key = lower('orders')
GROUP BY e.partition_key
ORDER BY entities DESC
LIMIT 20;

-- One partition, readable. Filtering on the raw key column keeps the primary-key index in use; it matches keys
-- as written for keys without U+0000, U+0001 or characters from U+D800 up, which are stored unchanged.
SELECT trestle_text(e.row_key) AS row_key, trestle_time(e.ticks) AS "timestamp",
       trestle_properties_json(e.properties) AS properties
FROM trestle_entity e
JOIN trestle_table t ON t.id = e.table_id
WHERE t.account = 'devstoreaccount1' AND t.name_key = lower('orders') AND e.partition_key = 'customer-42'
ORDER BY e.row_key
LIMIT 100;

-- Typed search on a property: orders with Quantity of at least 5 (Int32 or Int64).
SELECT partition_key, row_key, value_integer AS quantity
FROM trestle_properties
WHERE account = 'devstoreaccount1' AND table_name = 'orders' AND name = 'Quantity' AND value_integer >= 5
ORDER BY partition_key, row_key
LIMIT 100;

-- Which properties a table's entities carry, with their types: the table's de-facto schema.
SELECT name, edm_type, count(*) AS entities
FROM trestle_properties
WHERE account = 'devstoreaccount1' AND table_name = 'orders'
GROUP BY name, edm_type
ORDER BY entities DESC, name;

-- Entities written in the last hour (ticks are 100 ns since 1970).
SELECT t.account, t.name AS table_name, trestle_text(e.partition_key) AS partition_key,
       trestle_text(e.row_key) AS row_key, trestle_time(e.ticks) AS written
FROM trestle_entity e
JOIN trestle_table t ON t.id = e.table_id
WHERE e.ticks > (extract(epoch FROM now() - interval '1 hour') * 10000000)::bigint
ORDER BY e.ticks DESC
LIMIT 100;

-- Proof that a partition read is an index range scan on the primary key (look for trestle_entity_pk).
EXPLAIN
SELECT partition_key, row_key
FROM trestle_entity
WHERE table_id = 1 AND partition_key = 'customer-42' AND row_key >= 'order-000' AND row_key < 'order-100'
ORDER BY partition_key, row_key;
