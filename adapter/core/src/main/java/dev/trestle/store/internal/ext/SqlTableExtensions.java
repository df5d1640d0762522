package dev.trestle.store.internal.ext;

import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TICKS;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import dev.trestle.ChangeFeed;
import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.Ordering;
import dev.trestle.TableExtensions;
import dev.trestle.TimeToLive;
import dev.trestle.model.EntityValidator;
import dev.trestle.model.TableLimits;
import dev.trestle.store.internal.codec.ContinuationTokens;
import dev.trestle.store.internal.codec.ContinuationTokens.ResumePoint;
import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.Expiry;
import dev.trestle.store.internal.database.IndexCatalogue;
import dev.trestle.store.internal.database.IndexCatalogue.IndexedTable;
import dev.trestle.store.internal.database.ScanRequest;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.StoredPage;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.store.internal.feed.SqlChangeFeed;
import dev.trestle.store.internal.read.PointReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Cursor;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.Record3;
import org.jooq.impl.DSL;

/**
 * The extensions of one table. Each is one statement (or one per partition) that the database runs
 * over its key index, so its cost is the rows it touches, not a client round trip per page.
 */
public final class SqlTableExtensions implements TableExtensions {

  /** Rows per round trip of an ordered query's read. */
  private static final int FETCH_SIZE = 1_000;

  private final Store store;
  private final String account;
  private final String tableName;

  public SqlTableExtensions(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
  }

  @Override
  public long count(EntityQuery query) {
    Matching matching = Matching.of(store, Objects.requireNonNull(query, "query"));
    // A count of a large table rightly keeps the database busy for longer than a page.
    return store.unhurried(
        sql -> {
          IndexedTable table = IndexCatalogue.lookup(store, sql, account, tableName);
          return sql.selectCount()
              .from(store.dialect.entitiesForReading("trestle_entity"))
              .where(ENTITY_TABLE.eq(table.id()).and(matching.on(store, table)))
              .fetchOne(0, Long.class);
        });
  }

  @Override
  public boolean exists(String partitionKey, String rowKey) {
    EntityValidator.validateKey("PartitionKey", Objects.requireNonNull(partitionKey));
    EntityValidator.validateKey("RowKey", Objects.requireNonNull(rowKey));
    Dialect dialect = store.dialect;
    Field<Long> tableId = field(name("t", "id"), Long.class);
    // The catalog row tells TableNotFound from false in the same round trip; the entity's row is
    // only probed in the key index.
    Field<Boolean> present =
        DSL.field(
            DSL.exists(
                DSL.selectOne()
                    .from(Schema.ENTITIES)
                    .where(
                        ENTITY_TABLE.eq(tableId),
                        PARTITION_KEY.eq(dialect.encodeText(partitionKey)),
                        ROW_KEY.eq(dialect.encodeText(rowKey)))));
    Record3<Long, Boolean, Boolean> row =
        store
            .sql
            .select(tableId, present, field(name("t", "ttl_enabled"), Boolean.class))
            .from(Schema.TABLES.as("t"))
            .where(TableLookup.row("t", account, tableName))
            .fetchOne();
    if (row == null) {
      throw StoreErrors.tableNotFound();
    }
    if (Boolean.TRUE.equals(row.value2()) && Boolean.TRUE.equals(row.value3())) {
      // a table with time to live: only the entity tells whether it has expired
      return new PointReader(store, account, tableName)
          .find(store.sql, partitionKey, rowKey)
          .entity();
    }
    return Boolean.TRUE.equals(row.value2());
  }

  @Override
  public EntityPage queryDescending(EntityQuery query) {
    Objects.requireNonNull(query, "query");
    Matching matching = Matching.of(store, query);
    int top = query.top() == null ? TableLimits.MAX_PAGE_SIZE : query.top();
    Condition before =
        query.continuation() == null
            ? DSL.trueCondition()
            : before(ContinuationTokens.decodeAfter(query.continuation()));
    Field<Object> properties = store.dialect.propertiesColumn();
    List<? extends Record> rows =
        store.onOneConnection(
            sql -> {
              IndexedTable table = IndexCatalogue.lookup(store, sql, account, tableName);
              return sql.select(PARTITION_KEY, ROW_KEY, TICKS, properties)
                  .from(store.dialect.entitiesForReading("trestle_entity"))
                  .where(ENTITY_TABLE.eq(table.id()).and(matching.on(store, table)).and(before))
                  .orderBy(ENTITY_TABLE.desc(), PARTITION_KEY.desc(), ROW_KEY.desc())
                  .limit(DSL.inline(top + 1))
                  .fetch();
            });
    ScanRequest decoder =
        new ScanRequest(store, store.queryLimits, 0, null, null, null, null, null, tableName);
    List<StoredEntity> entities = new ArrayList<>(Math.min(top, rows.size()));
    for (int i = 0; i < Math.min(top, rows.size()); i++) {
      Record row = rows.get(i);
      entities.add(
          decoder.entity(
              row.get(PARTITION_KEY), row.get(ROW_KEY), row.get(TICKS), row.get(properties)));
    }
    Optional<dev.trestle.EntityQuery.Continuation> next = Optional.empty();
    if (rows.size() > top) {
      StoredEntity last = entities.get(entities.size() - 1);
      next = Optional.of(ContinuationTokens.after(last.partitionKey(), last.rowKey()));
    }
    return new StoredPage(entities, next).toEntityPage(query.select());
  }

  @Override
  public EntityPage queryOrderedBy(EntityQuery query, Ordering ordering) {
    Objects.requireNonNull(query, "query");
    PropertyOrder order = new PropertyOrder(Objects.requireNonNull(ordering, "ordering"));
    Matching matching = Matching.of(store, query);
    int top = query.top() == null ? TableLimits.MAX_PAGE_SIZE : query.top();
    PropertyOrder.SortKey after =
        query.continuation() == null ? null : order.resumeAfter(query.continuation());
    Field<Object> properties = store.dialect.propertiesColumn();
    ScanRequest decoder =
        new ScanRequest(store, store.queryLimits, 0, null, null, null, null, null, tableName);
    // Every match is read and the first top + 1 after the resume point are kept: the cost is the
    // matches of the filter, whatever top is. The rows stream in batches (PostgreSQL's driver
    // honours a fetch size only inside a transaction, hence the snapshot).
    PageSelection page = new PageSelection(order, after, top + 1);
    store.inSnapshot(
        sql -> {
          IndexedTable table = IndexCatalogue.lookup(store, sql, account, tableName);
          try (Cursor<? extends Record> rows =
              sql.select(PARTITION_KEY, ROW_KEY, TICKS, properties)
                  .from(store.dialect.entitiesForReading("trestle_entity"))
                  .where(ENTITY_TABLE.eq(table.id()).and(matching.on(store, table)))
                  .fetchSize(FETCH_SIZE)
                  .fetchLazy()) {
            for (Record row : rows) {
              page.offer(
                  decoder.entity(
                      row.get(PARTITION_KEY),
                      row.get(ROW_KEY),
                      row.get(TICKS),
                      row.get(properties)));
            }
          }
          return null;
        });
    List<PageSelection.Entry> kept = page.inOrder();
    List<StoredEntity> entities = new ArrayList<>();
    for (int i = 0; i < Math.min(top, kept.size()); i++) {
      entities.add(kept.get(i).entity());
    }
    Optional<dev.trestle.EntityQuery.Continuation> next = Optional.empty();
    if (kept.size() > top) {
      next = Optional.of(PropertyOrder.continuationAfter(kept.get(top - 1).key()));
    }
    return new StoredPage(entities, next).toEntityPage(query.select());
  }

  /** The keys strictly before the last entity of the previous page, in descending order's sense. */
  private Condition before(ResumePoint resume) {
    String partitionKey = store.dialect.encodeText(resume.partitionKey());
    if (resume.rowKey() == null) {
      return PARTITION_KEY.le(partitionKey);
    }
    return DSL.row(PARTITION_KEY, ROW_KEY)
        .lt(partitionKey, store.dialect.encodeText(resume.rowKey()));
  }

  @Override
  public long deletePartition(String partitionKey) {
    EntityValidator.validateKey("PartitionKey", Objects.requireNonNull(partitionKey));
    return new BulkDelete(store, account, tableName).partition(partitionKey);
  }

  @Override
  public long deleteWhere(EntityQuery query, DeleteProgress progress) {
    Matching matching = Matching.of(store, Objects.requireNonNull(query, "query"));
    return new BulkDelete(store, account, tableName)
        .where(matching, Objects.requireNonNull(progress, "progress"));
  }

  @Override
  public TimeToLive timeToLive() {
    Record2<Boolean, Long> row =
        store
            .sql
            .select(Schema.TTL_ENABLED, Schema.DEFAULT_TTL)
            .from(Schema.TABLES)
            .where(TableLookup.row(account, tableName))
            .fetchOne();
    if (row == null) {
      throw StoreErrors.tableNotFound();
    }
    return Expiry.of(row.value1(), row.value2()).setting();
  }

  @Override
  public void timeToLive(TimeToLive setting) {
    Expiry expiry = Expiry.of(Objects.requireNonNull(setting, "setting"));
    int updated =
        store
            .sql
            .update(Schema.TABLES)
            .set(Schema.TTL_ENABLED, expiry.enabled())
            .set(Schema.DEFAULT_TTL, expiry.defaultSeconds())
            .where(TableLookup.row(account, tableName))
            .execute();
    if (updated == 0) {
      throw StoreErrors.tableNotFound();
    }
  }

  @Override
  public ChangeFeed changeFeed() {
    return new SqlChangeFeed(store, account, tableName);
  }

  @Override
  public long truncate() {
    return new BulkDelete(store, account, tableName).all();
  }
}
