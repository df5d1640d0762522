package dev.trestle.store.internal.write;

import static dev.trestle.store.internal.database.Schema.ENTITIES;
import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TABLES;
import static dev.trestle.store.internal.database.Schema.TABLE_ID;
import static dev.trestle.store.internal.database.Schema.TICKS;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableOperation;
import dev.trestle.TableOperation.Kind;
import dev.trestle.TransactionFailedException;
import dev.trestle.store.internal.codec.ETags;
import dev.trestle.store.internal.codec.StoredRow;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.GroupGuard;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.TableLookup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.Record4;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * Runs writes, one operation or an entity-group transaction, in one database transaction: it locks
 * the existing rows of the entities involved (SELECT ... FOR UPDATE), decides every operation in
 * Java against those versions (existence, ETag, merge), then writes. Nothing is written when an
 * operation fails.
 *
 * <p>The lock is an optimisation, not what correctness rests on: every update and delete is a
 * compare-and-set on the version it was decided against ({@code WHERE ticks = ?}), every insert
 * relies on the primary key, and every statement's row count is checked. A write whose premise no
 * longer holds (a lost lock, a statement that ran outside the transaction, a race between two
 * inserts of a new key, a deadlock) rolls back and is decided again on fresh data, so that a write
 * is acknowledged only when its transaction committed exactly what was decided, and callers never
 * see a duplicate-key error from an upsert.
 */
public final class EntityWriter {
  private static final int MAX_ATTEMPTS = 30;

  private final Store store;
  private final String account;
  private final String tableName;

  public EntityWriter(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
  }

  /** Applies one valid operation; returns the stored entity, or throws the operation's error. */
  public TableEntity writeOne(TableOperation operation) {
    try {
      return write(List.of(operation)).get(0);
    } catch (OperationFailure failure) {
      throw failure.error;
    }
  }

  /**
   * Applies valid operations on distinct entities of one partition, all or none; returns the stored
   * entities, or throws {@link TransactionFailedException} naming the failing operation.
   */
  public List<TableEntity> writeAll(List<TableOperation> operations) {
    try {
      return write(operations);
    } catch (OperationFailure failure) {
      throw new TransactionFailedException(failure.index, failure.error);
    }
  }

  /**
   * A group write under the database's group guard for its table, held through the commit: looked
   * up on the connection the write then uses, so the guard is never waited for while the pool is
   * waited for. A table that is not there is left to the write itself, which reports it as usual.
   */
  private List<TableEntity> guarded(List<TableOperation> operations) {
    return store.onOneConnection(
        connection -> {
          Long tableId =
              connection
                  .select(TABLE_ID)
                  .from(TABLES)
                  .where(TableLookup.row(account, tableName))
                  .fetchOne(0, Long.class);
          return tableId == null
              ? store.inTransaction(connection, sql -> apply(sql, operations))
              : store.groups.write(
                  tableId, () -> store.inTransaction(connection, sql -> apply(sql, operations)));
        });
  }

  private List<TableEntity> write(List<TableOperation> operations) {
    if (operations.size() == 1 && operations.get(0).kind() == Kind.INSERT) {
      return List.of(insertOne(operations.get(0).entity()));
    }
    for (int attempt = 1; ; attempt++) {
      try {
        return operations.size() == 1 || store.groups == GroupGuard.NONE
            ? store.inTransaction(sql -> apply(sql, operations))
            : guarded(operations);
      } catch (StalePremise | DataAccessException e) {
        if (store.errors.isMissingParent(e)) {
          throw new OperationFailure(0, StoreErrors.tableNotFound());
        }
        boolean retry =
            e instanceof StalePremise
                || store.errors.isDuplicateKey(e)
                || store.errors.isTransient(e);
        if (!retry) {
          throw e;
        }
        if (attempt == MAX_ATTEMPTS) {
          throw new OperationFailure(
              0,
              new TableException(
                  TableErrorCode.SERVER_BUSY,
                  "The server is busy: the write kept conflicting with concurrent writes. Please retry.",
                  e));
        }
        // Someone else won a race for one of our keys; back off a little and decide again on fresh
        // data.
        LockSupport.parkNanos(
            ThreadLocalRandom.current().nextLong(100_000, 1_000_000L * Math.min(attempt, 20)));
      }
    }
  }

  /**
   * A single insert is one statement in auto-commit: the table's id comes from a subquery (no row
   * inserted means no table) and the primary key rejects a duplicate.
   */
  private TableEntity insertOne(TableEntity entity) {
    Dialect dialect = store.dialect;
    StoredRow row = stored(entity, Ticks.now(), entity.properties());
    int inserted;
    try {
      inserted =
          store
              .sql
              .insertInto(
                  ENTITIES, ENTITY_TABLE, PARTITION_KEY, ROW_KEY, TICKS, dialect.propertiesColumn())
              .select(
                  DSL.select(
                          TABLE_ID,
                          DSL.val(dialect.encodeText(entity.partitionKey())),
                          DSL.val(dialect.encodeText(entity.rowKey())),
                          DSL.val(row.ticks()),
                          dialect.propertiesValue(store.properties.encode(row.properties())))
                      .from(TABLES)
                      .where(TableLookup.row(account, tableName)))
              .execute();
    } catch (DataAccessException e) {
      if (store.errors.isDuplicateKey(e)) {
        throw new OperationFailure(0, StoreErrors.entityAlreadyExists());
      }
      if (store.errors.isMissingParent(e)) {
        throw new OperationFailure(0, StoreErrors.tableNotFound());
      }
      throw e;
    }
    if (inserted == 0) {
      throw new OperationFailure(0, StoreErrors.tableNotFound());
    }
    return row.toEntity();
  }

  private List<TableEntity> apply(DSLContext sql, List<TableOperation> operations) {
    String partitionKey = operations.get(0).entity().partitionKey();
    LockedRows locked = lockExisting(sql, partitionKey, operations);
    Map<String, StoredRow> current = locked.rows();
    long tableId;
    if (locked.tableId() != null) {
      tableId = locked.tableId();
    } else {
      // No entity exists yet: either the table is missing or every operation targets a new entity.
      try {
        tableId = TableLookup.id(sql, account, tableName);
      } catch (TableException e) {
        throw new OperationFailure(0, e);
      }
    }

    List<TableEntity> results = new ArrayList<>(operations.size());
    List<StoredRow> inserts = new ArrayList<>();
    List<Change> updates = new ArrayList<>();
    List<StoredRow> deletes = new ArrayList<>();
    for (int i = 0; i < operations.size(); i++) {
      TableOperation operation = operations.get(i);
      TableEntity entity = operation.entity();
      StoredRow existing = current.get(entity.rowKey());
      StoredRow written;
      try {
        written = decide(operation, existing);
      } catch (TableException e) {
        throw new OperationFailure(i, e);
      }
      if (written == null) {
        deletes.add(existing);
        results.add(TableEntity.builder(entity.partitionKey(), entity.rowKey()).build());
      } else {
        if (existing == null) {
          inserts.add(written);
        } else {
          updates.add(new Change(existing.ticks(), written));
        }
        results.add(written.toEntity());
      }
    }
    execute(sql, tableId, partitionKey, inserts, updates, deletes);
    return results;
  }

  /**
   * The row an operation leaves behind given the stored version (null: deleted); throws when it
   * must fail.
   */
  private static StoredRow decide(TableOperation operation, StoredRow existing) {
    TableEntity entity = operation.entity();
    return switch (operation.kind()) {
      case INSERT -> {
        if (existing != null) {
          throw StoreErrors.entityAlreadyExists();
        }
        yield stored(entity, Ticks.now(), entity.properties());
      }
      case UPDATE, MERGE -> {
        if (existing == null) {
          throw StoreErrors.resourceNotFound();
        }
        checkETag(operation.ifMatch(), existing);
        yield next(existing, entity, operation.kind() == Kind.MERGE);
      }
      case UPSERT_REPLACE, UPSERT_MERGE ->
          existing == null
              ? stored(entity, Ticks.now(), entity.properties())
              : next(existing, entity, operation.kind() == Kind.UPSERT_MERGE);
      case DELETE -> {
        if (existing == null) {
          throw StoreErrors.resourceNotFound();
        }
        checkETag(operation.ifMatch(), existing);
        yield null;
      }
    };
  }

  /** The locked current versions by row key, and the table's id when at least one row exists. */
  private record LockedRows(Long tableId, Map<String, StoredRow> rows) {}

  /**
   * Locks and reads the stored versions of the operations' entities in one statement; the table's
   * id comes from a subquery, so updates of existing entities need no separate catalog lookup.
   */
  private LockedRows lockExisting(
      DSLContext sql, String partitionKey, List<TableOperation> operations) {
    List<String> storedRowKeys = new ArrayList<>(operations.size());
    for (TableOperation operation : operations) {
      storedRowKeys.add(store.dialect.encodeText(operation.entity().rowKey()));
    }
    boolean needProperties =
        operations.stream()
            .anyMatch(op -> op.kind() == Kind.MERGE || op.kind() == Kind.UPSERT_MERGE);
    var properties = store.dialect.propertiesColumn();
    var tableId = TableLookup.idField(account, tableName);
    var select =
        sql.select(
                ENTITY_TABLE,
                ROW_KEY,
                TICKS,
                needProperties ? properties : DSL.inline((Object) null).as("properties"))
            .from(store.dialect.entitiesForReading("trestle_entity"))
            .where(
                ENTITY_TABLE.eq(tableId),
                PARTITION_KEY.eq(store.dialect.encodeText(partitionKey)),
                storedRowKeys.size() == 1
                    ? ROW_KEY.eq(storedRowKeys.get(0))
                    : ROW_KEY.in(storedRowKeys))
            // A fixed lock order keeps two transactions over the same entities from deadlocking.
            .orderBy(ENTITY_TABLE, PARTITION_KEY, ROW_KEY)
            .forUpdate();
    Map<String, StoredRow> rows = new HashMap<>();
    Long foundTableId = null;
    for (Record4<Long, String, Long, Object> row : select.fetch()) {
      foundTableId = row.value1();
      String rowKey = store.dialect.decodeText(row.value2());
      Map<String, PropertyValue> stored =
          row.value4() == null
              ? Map.of()
              : store.properties.decode(store.dialect.propertiesText(row.value4()));
      rows.put(rowKey, new StoredRow(partitionKey, rowKey, row.value3(), stored));
    }
    return new LockedRows(foundTableId, rows);
  }

  private static StoredRow next(StoredRow existing, TableEntity entity, boolean merge) {
    Map<String, PropertyValue> properties = entity.properties();
    if (merge) {
      Map<String, PropertyValue> merged = new LinkedHashMap<>(existing.properties());
      merged.putAll(entity.properties());
      properties = merged;
    }
    return stored(entity, Ticks.next(existing.ticks()), properties);
  }

  private static StoredRow stored(
      TableEntity entity, long ticks, Map<String, PropertyValue> properties) {
    return new StoredRow(entity.partitionKey(), entity.rowKey(), ticks, properties);
  }

  /** A new version of a stored entity, written only over the version it was decided against. */
  private record Change(long expectedTicks, StoredRow row) {}

  private void execute(
      DSLContext sql,
      long tableId,
      String partitionKey,
      List<StoredRow> inserts,
      List<Change> updates,
      List<StoredRow> deletes) {
    Dialect dialect = store.dialect;
    String storedPartitionKey = dialect.encodeText(partitionKey);
    var properties = dialect.propertiesColumn();
    if (!deletes.isEmpty()) {
      var delete =
          sql.deleteFrom(ENTITIES)
              .where(
                  ENTITY_TABLE.eq(tableId),
                  PARTITION_KEY.eq(storedPartitionKey),
                  ROW_KEY.eq(DSL.param("rk", String.class)),
                  TICKS.eq(DSL.param("expected", Long.class)));
      expectOneRowEach(
          batch(
              sql,
              delete,
              deletes.stream()
                  .map(
                      row ->
                          new Object[] {
                            tableId,
                            storedPartitionKey,
                            dialect.encodeText(row.rowKey()),
                            row.ticks()
                          })
                  .toList()),
          false);
    }
    if (!updates.isEmpty()) {
      // Bind order below follows this map's order: ticks, properties, then the key columns and the
      // expected version.
      Map<org.jooq.Field<?>, Object> assignments = new LinkedHashMap<>();
      assignments.put(TICKS, DSL.param("ticks", Long.class));
      assignments.put(properties, dialect.propertiesValue("{}"));
      var update =
          sql.update(ENTITIES)
              .set(assignments)
              .where(
                  ENTITY_TABLE.eq(tableId),
                  PARTITION_KEY.eq(storedPartitionKey),
                  ROW_KEY.eq(DSL.param("rk", String.class)),
                  TICKS.eq(DSL.param("expected", Long.class)));
      expectOneRowEach(
          batch(
              sql,
              update,
              updates.stream()
                  .map(
                      change ->
                          new Object[] {
                            change.row().ticks(),
                            dialect.propertiesBindValue(
                                store.properties.encode(change.row().properties())),
                            tableId,
                            storedPartitionKey,
                            dialect.encodeText(change.row().rowKey()),
                            change.expectedTicks()
                          })
                  .toList()),
          false);
    }
    if (!inserts.isEmpty()) {
      var insert =
          sql.insertInto(ENTITIES, ENTITY_TABLE, PARTITION_KEY, ROW_KEY, TICKS, properties)
              .values(
                  DSL.val(tableId),
                  DSL.val(storedPartitionKey),
                  DSL.val(""),
                  DSL.val(0L),
                  dialect.propertiesValue("{}"));
      expectOneRowEach(
          batch(
              sql,
              insert,
              inserts.stream()
                  .map(
                      row ->
                          new Object[] {
                            tableId,
                            storedPartitionKey,
                            dialect.encodeText(row.rowKey()),
                            row.ticks(),
                            dialect.propertiesBindValue(store.properties.encode(row.properties()))
                          })
                  .toList()),
          true);
    }
  }

  /**
   * Runs one prepared statement once per set of bind values (all of the statement's binds, in
   * order); returns the row count of each run.
   */
  private static int[] batch(DSLContext sql, Query template, List<Object[]> bindings) {
    if (bindings.size() == 1) {
      Object[] values = bindings.get(0);
      int i = 1;
      for (Object value : values) {
        template.bind(i++, value);
      }
      return new int[] {template.execute()};
    }
    var batch = sql.batch(template);
    for (Object[] values : bindings) {
      batch = batch.bind(values);
    }
    return batch.execute();
  }

  /**
   * Each statement must have changed exactly the one row it was decided for; anything else means
   * the premise of the decision no longer holds, so the transaction rolls back and the write is
   * decided again. A driver that cannot say (SUCCESS_NO_INFO) is trusted only for inserts, which
   * the primary key guards by itself.
   */
  private static void expectOneRowEach(int[] counts, boolean insert) {
    for (int count : counts) {
      if (count != 1 && !(insert && count == java.sql.Statement.SUCCESS_NO_INFO)) {
        throw new StalePremise();
      }
    }
  }

  private static void checkETag(String ifMatch, StoredRow existing) {
    if (!ETags.matches(ifMatch, existing.ticks())) {
      throw StoreErrors.updateConditionNotSatisfied();
    }
  }

  /**
   * A statement did not change the row it was decided for: roll back, then decide again on fresh
   * data.
   */
  private static final class StalePremise extends RuntimeException {
    StalePremise() {
      super("A write's compare-and-set found the entity changed or missing", null, false, false);
    }
  }

  /** An operation failed, at this index; nothing was written. */
  private static final class OperationFailure extends RuntimeException {
    final int index;
    final TableException error;

    OperationFailure(int index, TableException error) {
      super(error.getMessage(), error, false, false);
      this.index = index;
      this.error = error;
    }
  }
}
