package dev.trestle.store.internal.write;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableException;
import dev.trestle.TableOperation;
import dev.trestle.TableOperation.Kind;
import dev.trestle.TransactionFailedException;
import dev.trestle.store.internal.codec.ETags;
import dev.trestle.store.internal.codec.ScalarDocument;
import dev.trestle.store.internal.codec.ScalarDocument.ScalarRow;
import dev.trestle.store.internal.codec.StoredRow;
import dev.trestle.store.internal.codec.VersionClock;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.Expiry;
import dev.trestle.store.internal.database.GroupGuard;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.TableLookup;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Runs writes: one operation on one entity ({@link SingleWrite}, one statement where the semantics
 * allow), or an entity-group transaction in one database transaction, which locks the existing rows
 * of the entities involved (SELECT ... FOR UPDATE), decides every operation in Java against those
 * versions (existence, ETag, merge), then writes them: the deletes and the updates in a JDBC batch
 * each, the inserts in one multi-row statement. A transaction of inserts only is first tried as
 * that one statement alone, in auto-commit, without reading. Nothing is written when an operation
 * fails. Every statement's text is built once ({@link
 * dev.trestle.store.internal.database.EntityStatements}).
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
  private final String nameKey;
  private final String tableName;
  private final SingleWrite single;

  public EntityWriter(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.nameKey = TableLookup.nameKey(tableName);
    this.tableName = tableName;
    this.single = new SingleWrite(store, account, tableName);
  }

  /** Applies one valid operation; returns the stored entity, or throws the operation's error. */
  public TableEntity writeOne(TableOperation operation) {
    try {
      return retried(
          () ->
              operation.kind() == Kind.INSERT
                  ? single.write(store.sql, operation)
                  : store.inTransaction(sql -> single.write(sql, operation)));
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
      if (store.statements.insertRows != null
          && operations.stream().allMatch(operation -> operation.kind() == Kind.INSERT)) {
        List<TableEntity> inserted = insertedAtOnce(operations);
        if (inserted != null) {
          return inserted;
        }
      }
      return retried(
          () ->
              operations.size() == 1 || store.groups == GroupGuard.NONE
                  ? store.inTransaction(sql -> apply(sql, operations))
                  : guarded(operations));
    } catch (OperationFailure failure) {
      throw new TransactionFailedException(failure.index, failure.error);
    }
  }

  /**
   * A change set of inserts only, as one multi-row insert in auto-commit, as a single insert is:
   * one statement is atomic, and no entity needs reading when none exists. Null when that did not
   * hold (a key met, as a racing insert's would be; an expired entity; no such table; a transient
   * failure): then nothing was written, and the change set is decided and written as any other,
   * which finds the failing operation's index. Under a group guard (H2) the statement runs, still
   * in auto-commit, while the guard of the table looked up first is held.
   */
  private List<TableEntity> insertedAtOnce(List<TableOperation> operations) {
    int n = operations.size();
    String partitionKey = operations.get(0).entity().partitionKey();
    List<StoredRow> rows = new ArrayList<>(n);
    for (TableOperation operation : operations) {
      TableEntity entity = operation.entity();
      rows.add(stored(entity, store.versions.now(), entity.properties()));
    }
    try {
      int inserted =
          store.groups == GroupGuard.NONE
              ? store.withConnection(
                  store.sql,
                  connection -> {
                    try (PreparedStatement insert =
                        connection.prepareStatement(store.statements.insertRows)) {
                      insert.setString(1, store.dialect.encodeText(partitionKey));
                      bindRows(connection, insert, 2, rows, 7);
                      insert.setString(5, account);
                      insert.setString(6, nameKey);
                      return insert.executeUpdate();
                    }
                  })
              : store.onOneConnection(
                  context -> {
                    Long tableId = tableId(context);
                    return tableId == null
                        ? 0
                        : store.groups.write(
                            tableId, () -> insertByTableId(context, tableId, partitionKey, rows));
                  });
      if (inserted != n) {
        return null; // no such table: nothing was written
      }
    } catch (DataAccessException | TableException e) {
      if (e instanceof TableException && !store.errors.isTransient(e)) {
        throw e;
      }
      if (store.errors.isDuplicateKey(e)
          || store.errors.isMissingParent(e)
          || store.errors.isTransient(e)) {
        return null;
      }
      throw e;
    }
    List<TableEntity> results = new ArrayList<>(n);
    for (StoredRow row : rows) {
      results.add(row.toEntity());
    }
    return results;
  }

  private int insertByTableId(
      DSLContext context, long tableId, String partitionKey, List<StoredRow> rows) {
    return store.withConnection(
        context,
        connection -> {
          try (PreparedStatement insert =
              connection.prepareStatement(store.statements.groupInsertRows)) {
            insert.setLong(1, tableId);
            insert.setString(2, store.dialect.encodeText(partitionKey));
            bindRows(connection, insert, 3, rows, 6);
            return insert.executeUpdate();
          }
        });
  }

  /**
   * Binds the row keys, ticks and properties of new rows as three arrays, from {@code index}; where
   * the store keeps scalar rows, the row keys, their scalar documents and their signatures from
   * {@code scalarIndex}.
   */
  private void bindRows(
      java.sql.Connection connection,
      PreparedStatement insert,
      int index,
      List<StoredRow> rows,
      int scalarIndex)
      throws java.sql.SQLException {
    int n = rows.size();
    String[] rowKeys = new String[n];
    Long[] ticks = new Long[n];
    String[] documents = new String[n];
    for (int i = 0; i < n; i++) {
      StoredRow row = rows.get(i);
      rowKeys[i] = store.dialect.encodeText(row.rowKey());
      ticks[i] = row.ticks();
      documents[i] = store.properties.encode(row.properties());
    }
    String[] types = store.dialect.arrayTypes();
    insert.setArray(index, connection.createArrayOf(types[0], rowKeys));
    insert.setArray(index + 1, connection.createArrayOf(types[1], ticks));
    insert.setArray(index + 2, connection.createArrayOf(types[0], documents));
    if (store.dialect.hasScalarStore()) {
      String[] scalars = new String[n];
      Long[] signatures = new Long[n];
      for (int i = 0; i < n; i++) {
        ScalarRow scalar = ScalarDocument.row(documents[i]);
        scalars[i] = scalar.document();
        signatures[i] = scalar.signature();
      }
      insert.setArray(scalarIndex, connection.createArrayOf(types[0], rowKeys));
      insert.setArray(scalarIndex + 1, connection.createArrayOf(types[0], scalars));
      insert.setArray(scalarIndex + 2, connection.createArrayOf(types[1], signatures));
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
          Long tableId = tableId(connection);
          return tableId == null
              ? store.inTransaction(connection, sql -> apply(sql, operations))
              : store.groups.write(
                  tableId, () -> store.inTransaction(connection, sql -> apply(sql, operations)));
        });
  }

  /** The table's id, or null when there is no such table. */
  Long tableId(DSLContext context) {
    return store.withConnection(
        context,
        connection -> {
          try (PreparedStatement select = connection.prepareStatement(store.statements.tableId)) {
            select.setString(1, account);
            select.setString(2, nameKey);
            try (ResultSet row = select.executeQuery()) {
              return row.next() ? row.getLong(1) : null;
            }
          }
        });
  }

  /**
   * Runs a write until it is decided on data that held when it was written: again (after a short
   * random back-off) when its premise went stale (null), another insert of the same new key won the
   * race, or the database asks for it (deadlock, serialization failure).
   */
  <T> T retried(Supplier<T> write) {
    for (int attempt = 1; ; attempt++) {
      RuntimeException failure;
      try {
        T written = write.get();
        if (written != null) {
          return written;
        }
        failure = new StalePremise();
      } catch (StalePremise | DataAccessException | TableException e) {
        if (e instanceof TableException && !store.errors.isTransient(e)) {
          throw e; // decided; only a lost race made ServerBusy (SqlErrors.translate) runs again
        }
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
        failure = e;
      }
      if (attempt == MAX_ATTEMPTS) {
        throw new OperationFailure(0, StoreErrors.keptConflicting(failure));
      }
      // Someone else won a race for one of our keys; back off a little and decide again on fresh
      // data.
      LockSupport.parkNanos(
          ThreadLocalRandom.current().nextLong(100_000, 1_000_000L * Math.min(attempt, 20)));
    }
  }

  /**
   * Decides and writes valid operations on distinct entities of one partition inside the caller's
   * transaction; throws {@link OperationFailure} at the failing operation's index in the list.
   */
  List<TableEntity> apply(DSLContext sql, List<TableOperation> operations) {
    String partitionKey = operations.get(0).entity().partitionKey();
    LockedRows locked = lockExisting(sql, partitionKey, operations);
    Map<String, StoredRow> current = locked.rows();
    Long tableId = locked.tableId() != null ? locked.tableId() : tableId(sql);
    if (tableId == null) {
      // No entity exists and neither does the table.
      throw new OperationFailure(0, StoreErrors.tableNotFound());
    }

    List<TableEntity> results = new ArrayList<>(operations.size());
    List<StoredRow> inserts = new ArrayList<>();
    List<Change> updates = new ArrayList<>();
    List<StoredRow> deletes = new ArrayList<>(locked.expired());
    for (int i = 0; i < operations.size(); i++) {
      TableOperation operation = operations.get(i);
      TableEntity entity = operation.entity();
      StoredRow existing = current.get(entity.rowKey());
      StoredRow written;
      try {
        written = decide(store.versions, operation, existing);
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
   * must fail. A stored entity's next version comes after its stored one whatever our clock says.
   */
  private static StoredRow decide(
      VersionClock versions, TableOperation operation, StoredRow existing) {
    TableEntity entity = operation.entity();
    return switch (operation.kind()) {
      case INSERT -> {
        if (existing != null) {
          throw StoreErrors.entityAlreadyExists();
        }
        yield stored(entity, versions.now(), entity.properties());
      }
      case UPDATE, MERGE -> {
        if (existing == null) {
          throw StoreErrors.resourceNotFound();
        }
        checkETag(operation.ifMatch(), existing);
        yield next(versions, existing, entity, operation.kind() == Kind.MERGE);
      }
      case UPSERT_REPLACE, UPSERT_MERGE ->
          existing == null
              ? stored(entity, versions.now(), entity.properties())
              : next(versions, existing, entity, operation.kind() == Kind.UPSERT_MERGE);
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
  private record LockedRows(Long tableId, Map<String, StoredRow> rows, List<StoredRow> expired) {}

  /**
   * Locks and reads the stored versions of the operations' entities in one statement; the table's
   * id comes from a subquery, so updates of existing entities need no separate catalog lookup.
   */
  private LockedRows lockExisting(
      DSLContext sql, String partitionKey, List<TableOperation> operations) {
    Dialect dialect = store.dialect;
    boolean needProperties =
        operations.stream()
            .anyMatch(op -> op.kind() == Kind.MERGE || op.kind() == Kind.UPSERT_MERGE);
    return store.withConnection(
        sql,
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  store.statements.lock(operations.size(), needProperties))) {
            select.setString(1, account);
            select.setString(2, nameKey);
            select.setString(3, dialect.encodeText(partitionKey));
            int i = 4;
            for (TableOperation operation : operations) {
              select.setString(i++, dialect.encodeText(operation.entity().rowKey()));
            }
            Map<String, StoredRow> rows = new HashMap<>();
            List<StoredRow> expired = new ArrayList<>();
            Long foundTableId = null;
            long now = store.versions.time();
            try (ResultSet row = select.executeQuery()) {
              while (row.next()) {
                foundTableId = row.getLong(1);
                String rowKey = dialect.decodeText(row.getString(2));
                String document = row.getString(4);
                Expiry expiry = Expiry.of(row.getBoolean(5), row.getObject(6, Long.class));
                if (expiry.expired(store.properties, row.getLong(3), document, now)) {
                  // absent to the group; its locked version goes first, so an insert finds no key
                  expired.add(new StoredRow(partitionKey, rowKey, row.getLong(3), Map.of()));
                  continue;
                }
                Map<String, PropertyValue> stored =
                    document == null
                        ? Map.of()
                        : store.properties.decodeRow(document, tableName, partitionKey, rowKey);
                rows.put(rowKey, new StoredRow(partitionKey, rowKey, row.getLong(3), stored));
              }
            }
            return new LockedRows(foundTableId, rows, expired);
          }
        });
  }

  private static StoredRow next(
      VersionClock versions, StoredRow existing, TableEntity entity, boolean merge) {
    Map<String, PropertyValue> properties = entity.properties();
    if (merge) {
      Map<String, PropertyValue> merged = new LinkedHashMap<>(existing.properties());
      merged.putAll(entity.properties());
      properties = merged;
    }
    return stored(entity, versions.next(existing.ticks()), properties);
  }

  private static StoredRow stored(
      TableEntity entity, long ticks, Map<String, PropertyValue> properties) {
    return new StoredRow(entity.partitionKey(), entity.rowKey(), ticks, properties);
  }

  /** A new version of a stored entity, written only over the version it was decided against. */
  private record Change(long expectedTicks, StoredRow row) {}

  /**
   * Writes what was decided: deletes, then updates (a JDBC batch each), then inserts (one statement
   * where the dialect has one, else a JDBC batch). An update's ticks were decided from the locked
   * row and its statement compares them with the stored ones again.
   */
  private void execute(
      DSLContext sql,
      long tableId,
      String partitionKey,
      List<StoredRow> inserts,
      List<Change> updates,
      List<StoredRow> deletes) {
    Dialect dialect = store.dialect;
    String storedPartitionKey = dialect.encodeText(partitionKey);
    store.withConnection(
        sql,
        connection -> {
          if (!deletes.isEmpty()) {
            try (PreparedStatement delete =
                connection.prepareStatement(store.statements.groupDelete)) {
              for (StoredRow row : deletes) {
                delete.setLong(1, tableId);
                delete.setString(2, storedPartitionKey);
                delete.setString(3, dialect.encodeText(row.rowKey()));
                delete.setLong(4, row.ticks());
                delete.addBatch();
              }
              expectOneRowEach(delete.executeBatch(), false);
            }
          }
          if (!updates.isEmpty()) {
            try (PreparedStatement update =
                connection.prepareStatement(store.statements.groupUpdate)) {
              for (Change change : updates) {
                String document = store.properties.encode(change.row().properties());
                update.setLong(1, change.row().ticks());
                update.setString(2, document);
                update.setLong(3, tableId);
                update.setString(4, storedPartitionKey);
                update.setString(5, dialect.encodeText(change.row().rowKey()));
                update.setLong(6, change.expectedTicks());
                if (dialect.hasScalarStore()) {
                  ScalarRow scalar = ScalarDocument.row(document);
                  update.setString(7, scalar.document());
                  update.setLong(8, scalar.signature());
                }
                update.addBatch();
              }
              expectOneRowEach(update.executeBatch(), false);
            }
          }
          if (!inserts.isEmpty() && store.statements.groupInsertRows != null) {
            if (insertByTableId(sql, tableId, partitionKey, inserts) != inserts.size()) {
              throw new StalePremise();
            }
          } else if (!inserts.isEmpty()) {
            try (PreparedStatement insert =
                connection.prepareStatement(store.statements.groupInsert)) {
              for (StoredRow row : inserts) {
                insert.setLong(1, tableId);
                insert.setString(2, storedPartitionKey);
                insert.setString(3, dialect.encodeText(row.rowKey()));
                String document = store.properties.encode(row.properties());
                insert.setLong(4, row.ticks());
                insert.setString(5, document);
                if (dialect.hasScalarStore()) {
                  ScalarRow scalar = ScalarDocument.row(document);
                  insert.setString(6, scalar.document());
                  insert.setLong(7, scalar.signature());
                }
                insert.addBatch();
              }
              expectOneRowEach(insert.executeBatch(), true);
            }
          }
          return null;
        });
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
  static final class OperationFailure extends RuntimeException {
    final int index;
    final TableException error;

    OperationFailure(int index, TableException error) {
      super(error.getMessage(), error, false, false);
      this.index = index;
      this.error = error;
    }
  }
}
