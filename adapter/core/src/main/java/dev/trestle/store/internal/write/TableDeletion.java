package dev.trestle.store.internal.write;

import static dev.trestle.store.internal.database.Schema.ACCOUNT;
import static dev.trestle.store.internal.database.Schema.ENTITIES;
import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.NAME_KEY;
import static dev.trestle.store.internal.database.Schema.TABLES;
import static dev.trestle.store.internal.database.Schema.TABLE_ID;
import static dev.trestle.store.internal.database.Schema.TTL_ENABLED;

import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.TableLookup;
import java.sql.PreparedStatement;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a table so that no writer of another table waits for it, whatever its size. First the
 * table leaves its account, in one short transaction: its catalog row moves to {@link #DELETED},
 * where no lookup by account and name finds it, so the delete has taken effect for every reader and
 * writer and the name is free again. Then its entities go, and last its catalog row with what still
 * hangs on it: on H2 the entities go a chunk per transaction first (see its dialect), since one
 * cascading statement there kept every other writer of the database waiting for the whole delete (a
 * table of 100,000 entities: 13 s); on PostgreSQL the catalog row's cascade removes them, as
 * before, without holding up anyone else. A delete stopped half-way (a crash) leaves a table
 * already gone; {@link #finishAbandoned} removes the rest.
 */
public final class TableDeletion {
  /**
   * The account of tables being deleted: never a real one, whose names are 3 to 24 lower-case
   * letters or digits.
   */
  private static final String DELETED = "-deleted";

  private static final Logger LOG = LoggerFactory.getLogger(TableDeletion.class);

  private final Store store;

  public TableDeletion(Store store) {
    this.store = store;
  }

  /**
   * Takes the account's table out of its account (TableNotFound when there is none) and returns its
   * id, for {@link #purge}. Its change feed goes with it, so removing its entities appends no
   * changes.
   */
  public long detach(String account, String tableName) {
    // no silence limit: rewriting the feed triggers waits for statements on the entity table
    return store.unhurried(sql -> store.inTransaction(sql, tx -> detach(tx, account, tableName)));
  }

  private long detach(DSLContext sql, String account, String tableName) {
    long tableId = TableLookup.id(sql, account, tableName);
    int detached =
        sql.update(TABLES)
            .set(ACCOUNT, DELETED)
            .set(NAME_KEY, Long.toString(tableId))
            .set(TTL_ENABLED, false)
            .where(TABLE_ID.eq(tableId), ACCOUNT.eq(account))
            .execute();
    if (detached == 0) {
      throw StoreErrors.tableNotFound(); // deleted meanwhile by another caller
    }
    store.withConnection(
        sql,
        connection -> {
          try (PreparedStatement feed =
              connection.prepareStatement("delete from trestle_feed where table_id = ?")) {
            feed.setLong(1, tableId);
            if (feed.executeUpdate() > 0) {
              store.dialect.refreshFeedTriggers(connection);
            }
          }
          return null;
        });
    return tableId;
  }

  /**
   * Removes a detached table's entities and then its catalog row. Several callers may purge one
   * table at once: each removes what is left.
   */
  public void purge(long tableId) {
    store.unhurried(
        sql -> {
          store.withConnection(
              sql,
              connection -> {
                store.dialect.deleteEntitiesOf(connection, tableId);
                return null;
              });
          // the entities left, those of inserts in flight included, go with the catalog row
          return removeCatalogRow(sql, tableId);
        });
  }

  /** Finishes the oldest table whose delete stopped half-way, if any; the entities it had left. */
  public long finishAbandoned() {
    Long tableId =
        store
            .sql
            .select(TABLE_ID)
            .from(TABLES)
            .where(ACCOUNT.eq(DELETED))
            .orderBy(TABLE_ID)
            .limit(DSL.inline(1))
            .fetchOne(TABLE_ID);
    if (tableId == null) {
      return 0;
    }
    long entities = store.sql.fetchCount(ENTITIES, ENTITY_TABLE.eq(tableId));
    purge(tableId);
    LOG.info(
        "Finished the delete of table {}, stopped half-way (a crash) or still under way elsewhere: {} entities were left",
        tableId,
        entities);
    return entities;
  }

  private Void removeCatalogRow(DSLContext sql, long tableId) {
    sql.deleteFrom(TABLES).where(TABLE_ID.eq(tableId)).execute();
    return store.withConnection(
        sql,
        connection -> {
          store.dialect.removeDeletedTableStragglers(connection, tableId);
          return null;
        });
  }
}
