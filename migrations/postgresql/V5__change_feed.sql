-- Change feeds (a Trestle extension, off by default per table). A table has a feed when it has a row in
-- trestle_feed; every committed change of its entities is then appended to trestle_change by the triggers
-- below, in the writing transaction, so a change is in the feed exactly when it committed.
-- Order: a writer locks the table's trestle_feed row (SELECT ... FOR UPDATE, held to the commit) before it takes
-- the next position (after the newest change, read after the lock), so the writers of one table's feed take
-- positions in commit order, without gaps, and a reader that sees position N has seen every position before it.
-- The row is locked, not updated, so a transaction appending 100,000 changes leaves no chain of row versions.
CREATE TABLE trestle_feed (
    table_id      BIGINT PRIMARY KEY REFERENCES trestle_table (id) ON DELETE CASCADE,
    last_position BIGINT NOT NULL,           -- the newest position swept: positions continue after it
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

-- Row triggers append each change. Their WHEN clause names the tables that have a feed (a constant list that
-- PostgresDialect.refreshFeedTriggers rewrites whenever a feed is enabled or disabled), so a write to a table
-- without a feed fires nothing: PostgreSQL evaluates the list in C, no function is called, no row is read.
CREATE FUNCTION trestle_feed_append() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    feed   BIGINT := CASE TG_OP WHEN 'DELETE' THEN OLD.table_id ELSE NEW.table_id END;
    swept  BIGINT;
    pos    BIGINT;
    entity BOOLEAN;
BEGIN
    SELECT last_position, with_entity INTO swept, entity FROM trestle_feed WHERE table_id = feed FOR UPDATE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    -- a statement of its own: its snapshot, taken after the lock, sees the changes of the writer before
    SELECT greatest(coalesce(max(position), 0), swept) + 1 INTO pos FROM trestle_change WHERE table_id = feed;
    IF TG_OP = 'DELETE' THEN
        INSERT INTO trestle_change VALUES (feed, pos, 'D', OLD.partition_key, OLD.row_key, NULL,
            (extract(epoch FROM clock_timestamp()) * 10000000)::bigint, NULL);
    ELSE
        INSERT INTO trestle_change VALUES (feed, pos, CASE TG_OP WHEN 'INSERT' THEN 'I' ELSE 'U' END,
            NEW.partition_key, NEW.row_key, NEW.ticks,
            (extract(epoch FROM clock_timestamp()) * 10000000)::bigint,
            CASE WHEN entity THEN NEW.properties END);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER trestle_feed_written AFTER INSERT OR UPDATE ON trestle_entity
    FOR EACH ROW WHEN (false) EXECUTE FUNCTION trestle_feed_append();
CREATE TRIGGER trestle_feed_deleted AFTER DELETE ON trestle_entity
    FOR EACH ROW WHEN (false) EXECUTE FUNCTION trestle_feed_append();
-- Disabled while no table has a feed: then no write pays even the WHEN check.
ALTER TABLE trestle_entity DISABLE TRIGGER trestle_feed_written;
ALTER TABLE trestle_entity DISABLE TRIGGER trestle_feed_deleted;

COMMENT ON TABLE trestle_feed IS 'Trestle: the tables whose change feed is on (an extension), one row each; the row is locked by every writer of the table to take positions in commit order.';
COMMENT ON COLUMN trestle_feed.table_id IS 'The table (trestle_table.id).';
COMMENT ON COLUMN trestle_feed.last_position IS 'The position of the newest change appended.';
COMMENT ON COLUMN trestle_feed.with_entity IS 'Whether changes carry the entity''s new properties.';
COMMENT ON COLUMN trestle_feed.retention IS 'How long a change is kept, in 100 ns ticks; the sweep removes older ones.';
COMMENT ON COLUMN trestle_feed.enabled IS 'When the feed was enabled, in 100 ns ticks since 1970-01-01 UTC: the epoch of its position tokens.';
COMMENT ON TABLE trestle_change IS 'Trestle: the change feed, one row per committed change of a table with a feed, appended by triggers in the writing transaction.';
COMMENT ON COLUMN trestle_change.table_id IS 'The table (trestle_feed.table_id).';
COMMENT ON COLUMN trestle_change.position IS 'The change''s position in its table''s feed: gapless, in commit order.';
COMMENT ON COLUMN trestle_change.kind IS 'I insert, U update (replace, merge or upsert of a present entity), D delete.';
COMMENT ON COLUMN trestle_change.partition_key IS 'PartitionKey, encoded as in trestle_entity.';
COMMENT ON COLUMN trestle_change.row_key IS 'RowKey, encoded as in trestle_entity.';
COMMENT ON COLUMN trestle_change.ticks IS 'The entity''s new version (its Timestamp and ETag) in 100 ns ticks; null for a delete.';
COMMENT ON COLUMN trestle_change.changed IS 'The database''s clock at the write, in 100 ns ticks since 1970-01-01 UTC.';
COMMENT ON COLUMN trestle_change.properties IS 'The entity''s new properties in the stored form, when the feed carries entities; else null.';
