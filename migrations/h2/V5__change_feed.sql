-- Change feeds: the same tables as PostgreSQL's V5 (read it for the design). H2 has no transition tables,
-- so a row trigger (dev.trestle.store.internal.h2.H2FeedTrigger) appends each change; its update of the
-- table's trestle_feed row (locked, not updated) orders the writers of that table's feed as on PostgreSQL.
CREATE TABLE trestle_feed (
    table_id      BIGINT PRIMARY KEY REFERENCES trestle_table (id) ON DELETE CASCADE,
    last_position BIGINT NOT NULL,
    with_entity   BOOLEAN NOT NULL,
    retention     BIGINT NOT NULL,
    enabled       BIGINT NOT NULL
);

CREATE TABLE trestle_change (
    table_id      BIGINT NOT NULL REFERENCES trestle_feed (table_id) ON DELETE CASCADE,
    position      BIGINT NOT NULL,
    kind          CHAR(1) NOT NULL,
    partition_key VARCHAR NOT NULL,
    row_key       VARCHAR NOT NULL,
    ticks         BIGINT,
    changed       BIGINT NOT NULL,
    properties    VARCHAR,
    CONSTRAINT trestle_change_pk PRIMARY KEY (table_id, position)
);

CREATE TRIGGER trestle_feed_append AFTER INSERT, UPDATE, DELETE ON trestle_entity FOR EACH ROW
    CALL 'dev.trestle.store.internal.h2.H2FeedTrigger';

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
