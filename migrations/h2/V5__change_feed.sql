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
