-- Change feeds (a Trestle extension, off by default per table). A table has a feed when it has a row in
-- trestle_feed; every committed change of its entities is then appended to trestle_change by the triggers
-- below, in the writing transaction, so a change is in the feed exactly when it committed.
-- Order: each appending statement adds its count to the table's last_position. That row lock is held to the
-- commit, so the writers of one table's feed take positions in commit order, without gaps, and a reader
-- that sees position N has seen every position before it. A table without a feed row pays one primary-key
-- probe per statement (no row to update, nothing appended).
CREATE TABLE trestle_feed (
    table_id      BIGINT PRIMARY KEY REFERENCES trestle_table (id) ON DELETE CASCADE,
    last_position BIGINT NOT NULL,           -- the position of the newest change appended
    with_entity   BOOLEAN NOT NULL,          -- whether changes carry the entity's new properties
    retention     BIGINT NOT NULL,           -- 100 ns ticks a change is kept (the sweeper removes older)
    enabled       BIGINT NOT NULL            -- 100 ns ticks since 1970-01-01 UTC
);

-- One row per change: kind I (insert), U (update: replace, merge, upsert of an existing entity), D (delete).
-- ticks is the entity's new version (its ETag and Timestamp), null for a delete; changed is the database's
-- clock at the write. Keys are stored encoded as in trestle_entity.
CREATE TABLE trestle_change (
    table_id      BIGINT NOT NULL REFERENCES trestle_feed (table_id) ON DELETE CASCADE,
    position      BIGINT NOT NULL,
    kind          CHAR(1) NOT NULL,
    partition_key TEXT COLLATE "C" NOT NULL,
    row_key       TEXT COLLATE "C" NOT NULL,
    ticks         BIGINT,
    changed       BIGINT NOT NULL,
    properties    JSONB,
    CONSTRAINT trestle_change_pk PRIMARY KEY (table_id, position)
);

-- Statement-level triggers with transition tables: one counter update per statement whatever its row count
-- (a bulk delete of a partition appends one change per entity, in key order, in its transaction).
CREATE FUNCTION trestle_feed_append() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        WITH counts AS (SELECT table_id, count(*) AS n FROM old_rows GROUP BY table_id),
        bumped AS (
            UPDATE trestle_feed f SET last_position = f.last_position + c.n FROM counts c
            WHERE f.table_id = c.table_id
            RETURNING f.table_id, f.last_position - c.n AS base)
        INSERT INTO trestle_change (table_id, position, kind, partition_key, row_key, ticks, changed, properties)
        SELECT r.table_id,
               b.base + row_number() OVER (PARTITION BY r.table_id ORDER BY r.partition_key, r.row_key),
               'D', r.partition_key, r.row_key, NULL,
               (extract(epoch FROM clock_timestamp()) * 10000000)::bigint, NULL
        FROM old_rows r JOIN bumped b ON b.table_id = r.table_id;
    ELSE
        WITH counts AS (SELECT table_id, count(*) AS n FROM new_rows GROUP BY table_id),
        bumped AS (
            UPDATE trestle_feed f SET last_position = f.last_position + c.n FROM counts c
            WHERE f.table_id = c.table_id
            RETURNING f.table_id, f.last_position - c.n AS base, f.with_entity)
        INSERT INTO trestle_change (table_id, position, kind, partition_key, row_key, ticks, changed, properties)
        SELECT r.table_id,
               b.base + row_number() OVER (PARTITION BY r.table_id ORDER BY r.partition_key, r.row_key),
               CASE TG_OP WHEN 'INSERT' THEN 'I' ELSE 'U' END, r.partition_key, r.row_key, r.ticks,
               (extract(epoch FROM clock_timestamp()) * 10000000)::bigint,
               CASE WHEN b.with_entity THEN r.properties END
        FROM new_rows r JOIN bumped b ON b.table_id = r.table_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER trestle_feed_inserted AFTER INSERT ON trestle_entity
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trestle_feed_append();
CREATE TRIGGER trestle_feed_updated AFTER UPDATE ON trestle_entity
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trestle_feed_append();
CREATE TRIGGER trestle_feed_deleted AFTER DELETE ON trestle_entity
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION trestle_feed_append();
