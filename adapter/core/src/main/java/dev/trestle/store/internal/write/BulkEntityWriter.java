package dev.trestle.store.internal.write;

import static dev.trestle.store.internal.database.Schema.ENTITIES;
import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.model.EntityValidator;
import dev.trestle.store.internal.codec.CopiedRows;
import dev.trestle.store.internal.codec.ScalarDocument;
import dev.trestle.store.internal.codec.ScalarDocument.ScalarRow;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.Expiry;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.TableLookup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Condition;
import org.jooq.Row2;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The library's {@link BulkWriter}: rows of {@value #ROWS_PER_STATEMENT} per INSERT (or upsert),
 * each statement's SQL rendered once per row count and sent as JDBC batches, one transaction per
 * batch of entities. Duplicate keys within a batch are resolved before the database sees them
 * (multi-row upserts may not touch a row twice).
 */
public final class BulkEntityWriter implements BulkWriter {
  static final int ROWS_PER_STATEMENT = 100;
  private static final int MAX_ATTEMPTS = 10;

  private final Store store;
  private final String tableName;
  private final long tableId;
  private final BulkWriteOptions options;
  private final Map<Integer, String> statements = new ConcurrentHashMap<>();
  private LinkedHashMap<Key, Added> pending = new LinkedHashMap<>();
  private TableEntity lastAdded;
  private int pendingAdds;
  private long committed;
  private final OrderedBatches inFlight;

  private record Key(String partitionKey, String rowKey) {}

  /**
   * An entity added, encoded only when its batch is written (on the batch's own thread when
   * pipelined): its stored document, or null to encode its properties then.
   */
  private record Added(TableEntity entity, long ticks, String document) {}

  /** A row to write; {@code scalars} is null where the store keeps no scalar rows. */
  private record Row(
      String partitionKey, String rowKey, long ticks, String properties, ScalarRow scalars) {}

  /** Runs between a batch's duplicate key and the removal of expired entities: a test's race. */
  private final Runnable afterDuplicateKey;

  public BulkEntityWriter(Store store, String account, String tableName, BulkWriteOptions options) {
    this(store, account, tableName, options, () -> {});
  }

  BulkEntityWriter(
      Store store,
      String account,
      String tableName,
      BulkWriteOptions options,
      Runnable afterDuplicateKey) {
    this.afterDuplicateKey = afterDuplicateKey;
    this.store = store;
    this.tableName = tableName;
    this.options = options;
    this.tableId = store.onOneConnection(sql -> TableLookup.id(sql, account, tableName));
    this.inFlight =
        options.pipelined() && store.dialect.commitsBulkBatchesConcurrently()
            ? new OrderedBatches(tableName, this::committed)
            : null;
  }

  @Override
  public void add(TableEntity entity) {
    EntityValidator.validateForWrite(entity);
    long ticks =
        options.keepTimestamps() && entity.timestamp() != null
            ? Ticks.of(entity.timestamp())
            : store.versions.now(); // the service's clock, which time to live reads too
    pend(entity, ticks, null);
  }

  @Override
  public void addRaw(RawEntity entity) {
    CopiedRows.check(tableName, entity, options.keepTimestamps()); // hand-written SQL rows exist
    pend(
        entity.keys(),
        options.keepTimestamps() ? entity.ticks() : store.versions.now(),
        entity.document());
  }

  private void pend(TableEntity entity, long ticks, String document) {
    Added before =
        pending.put(
            new Key(entity.partitionKey(), entity.rowKey()), new Added(entity, ticks, document));
    if (before != null && options.mode() == BulkWriteOptions.Mode.INSERT) {
      pending.clear();
      pendingAdds = 0;
      throw new TableException(
          TableErrorCode.ENTITY_ALREADY_EXISTS,
          "The entity (PartitionKey='"
              + entity.partitionKey()
              + "', RowKey='"
              + entity.rowKey()
              + "') was added twice.");
    }
    lastAdded = entity;
    pendingAdds++;
    if (pending.size() >= options.batchSize()) {
      send();
    }
  }

  @Override
  public void flush() {
    send();
    if (inFlight != null) {
      inFlight.awaitAll();
    }
  }

  /**
   * Hands the pending batch to the database: at once, or, pipelined, to {@link OrderedBatches}
   * (several written at once, committed in order).
   */
  private void send() {
    if (pending.isEmpty()) {
      return;
    }
    LinkedHashMap<Key, Added> batch = pending;
    List<Added> rows = new ArrayList<>(batch.values());
    TableEntity last = lastAdded;
    int adds = pendingAdds;
    pending = new LinkedHashMap<>();
    pendingAdds = 0;
    if (inFlight == null) {
      commit(rows, last, null);
      committed(adds, last);
      return;
    }
    inFlight.send(batch.keySet(), adds, last, turn -> commit(rows, last, turn));
  }

  private void committed(int rows, TableEntity last) {
    committed += rows;
    options.listener().committed(committed, last);
  }

  /**
   * Commits the entities in one transaction; in its turn when pipelined (else {@code turn} null).
   */
  private void commit(List<Added> added, TableEntity last, OrderedBatches.Turn turn) {
    List<Row> rows = encoded(added);
    for (int attempt = 1; ; attempt++) {
      try {
        if (turn != null) {
          turn.awaitConnecting();
        }
        store.inTransaction(
            sql ->
                sql.connectionResult(
                    connection -> {
                      if (turn != null) {
                        turn.connected();
                      }
                      write(connection, rows);
                      if (turn != null) {
                        turn.awaitCommitting();
                      }
                      return null;
                    }));
        return;
      } catch (DataAccessException | TableException e) {
        if (e instanceof TableException && !store.errors.isTransient(e)) {
          throw e; // decided; only a lost race made ServerBusy (SqlErrors.translate) runs again
        }
        boolean retryable = store.errors.isTransient(e) || store.errors.isDuplicateKey(e);
        if (turn != null && retryable) {
          throw new OrderedBatches.RetryAlone(e); // decided again on its own, without a turn
        }
        if (store.errors.isDuplicateKey(e) && options.mode() == BulkWriteOptions.Mode.INSERT) {
          afterDuplicateKey.run();
          if (attempt < MAX_ATTEMPTS && removedExpired(rows)) {
            continue; // over expired entities, as over none
          }
          throw new TableException(
              TableErrorCode.ENTITY_ALREADY_EXISTS,
              "An entity of the batch ending at (PartitionKey='"
                  + last.partitionKey()
                  + "', RowKey='"
                  + last.rowKey()
                  + "') exists already in table "
                  + tableName
                  + ".",
              e);
        }
        if (store.errors.isMissingParent(e)) {
          throw StoreErrors.tableNotFound();
        }
        if (!retryable) {
          throw e;
        }
        if (attempt == MAX_ATTEMPTS) {
          throw StoreErrors.keptConflicting(e);
        }
      }
    }
  }

  private List<Row> encoded(List<Added> added) {
    Dialect dialect = store.dialect;
    List<Row> rows = new ArrayList<>(added.size());
    boolean scalars = dialect.hasScalarStore();
    for (Added each : added) {
      TableEntity entity = each.entity();
      String document =
          each.document() != null ? each.document() : store.properties.encode(entity.properties());
      rows.add(
          new Row(
              dialect.encodeText(entity.partitionKey()),
              dialect.encodeText(entity.rowKey()),
              each.ticks(),
              document,
              scalars ? ScalarDocument.row(document) : null));
    }
    return rows;
  }

  /**
   * After a duplicate key: deletes the stored entities of these keys that have expired (only in a
   * table with time to live, so that other tables' batches never pay for it), exactly those still
   * expired now; whether the batch may be written again: some were deleted, or none of its keys is
   * held by a live entity any more (the sweep removed the expired one the batch met).
   */
  private boolean removedExpired(List<Row> rows) {
    List<Row2<String, String>> keys = new ArrayList<>(rows.size());
    for (Row row : rows) {
      keys.add(DSL.row(row.partitionKey(), row.rowKey()));
    }
    return store.inTransaction(
        sql -> {
          Condition alive =
              Expiry.current(sql, store.dialect, tableId, false)
                  .alive(store.dialect, store.versions.time());
          if (alive == null) {
            return false;
          }
          Condition ofTheBatch =
              ENTITY_TABLE.eq(tableId).and(DSL.row(PARTITION_KEY, ROW_KEY).in(keys));
          return sql.deleteFrom(ENTITIES).where(ofTheBatch, DSL.not(alive)).execute() > 0
              || !sql.fetchExists(ENTITIES, ofTheBatch.and(alive));
        });
  }

  private void write(Connection connection, List<Row> rows) throws SQLException {
    int full = rows.size() / ROWS_PER_STATEMENT;
    if (full > 0) {
      try (PreparedStatement statement =
          connection.prepareStatement(statement(ROWS_PER_STATEMENT))) {
        for (int chunk = 0; chunk < full; chunk++) {
          bind(statement, rows, chunk * ROWS_PER_STATEMENT, ROWS_PER_STATEMENT);
          statement.addBatch();
        }
        statement.executeBatch();
      }
    }
    int rest = rows.size() - full * ROWS_PER_STATEMENT;
    if (rest > 0) {
      try (PreparedStatement statement = connection.prepareStatement(statement(rest))) {
        bind(statement, rows, full * ROWS_PER_STATEMENT, rest);
        statement.executeUpdate();
      }
    }
  }

  private void bind(PreparedStatement statement, List<Row> rows, int from, int count)
      throws SQLException {
    int p = 1;
    for (int i = from; i < from + count; i++) {
      Row row = rows.get(i);
      statement.setLong(p++, tableId);
      statement.setString(p++, row.partitionKey());
      statement.setString(p++, row.rowKey());
      statement.setLong(p++, row.ticks());
      statement.setString(p++, row.properties());
      if (row.scalars() != null) {
        statement.setString(p++, row.scalars().document());
        statement.setLong(p++, row.scalars().signature());
      }
    }
  }

  /** The SQL for {@code rows} rows, rendered once per count. */
  private String statement(int rows) {
    return statements.computeIfAbsent(rows, this::render);
  }

  /**
   * Plain SQL, not jOOQ's: jOOQ emulates a multi-row upsert on H2 with a MERGE over a UNION of
   * SELECTs, where H2's own MERGE ... KEY ... VALUES is one statement it executes directly.
   */
  private String render(int rows) {
    if (store.dialect.hasScalarStore()) {
      return renderWithScalars(rows);
    }
    boolean h2 = store.dialect.sqlDialect().family() == org.jooq.SQLDialect.H2;
    String columns = "(table_id, partition_key, row_key, ticks, properties)";
    String values = h2 ? "(?, ?, ?, ?, ?)" : "(?, ?, ?, ?, CAST(? AS jsonb))";
    StringBuilder sql = new StringBuilder(64 + rows * (values.length() + 2));
    boolean replace = options.mode() == BulkWriteOptions.Mode.REPLACE;
    sql.append(h2 && replace ? "MERGE INTO" : "INSERT INTO").append(" trestle_entity ");
    sql.append(columns);
    if (h2 && replace) {
      sql.append(" KEY (table_id, partition_key, row_key)");
    }
    sql.append(" VALUES ");
    for (int i = 0; i < rows; i++) {
      sql.append(i == 0 ? "" : ", ").append(values);
    }
    if (!h2 && replace) {
      sql.append(
          " ON CONFLICT (table_id, partition_key, row_key) DO UPDATE SET ticks = EXCLUDED.ticks,"
              + " properties = EXCLUDED.properties");
    }
    return sql.toString();
  }

  /**
   * The rows and their scalar rows in one statement: all rows are written or the statement fails,
   * so the scalar rows are written from the same values, not from what the insert returns.
   */
  private String renderWithScalars(int rows) {
    StringBuilder sql =
        new StringBuilder(
            "WITH v (table_id, partition_key, row_key, ticks, properties, scalars, signature)"
                + " AS (VALUES ");
    for (int i = 0; i < rows; i++) {
      sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?)");
    }
    boolean replace = options.mode() == BulkWriteOptions.Mode.REPLACE;
    sql.append(
        "), s AS (INSERT INTO trestle_entity_scalar"
            + " (table_id, partition_key, row_key, scalars, signature)"
            + " SELECT CAST(table_id AS bigint), partition_key, row_key, CAST(scalars AS jsonb),"
            + " CAST(signature AS bigint) FROM v");
    if (replace) {
      // new entities need no conflict clause: no scalar row outlives its entity
      sql.append(
          " ON CONFLICT (table_id, partition_key, row_key) DO UPDATE SET scalars = EXCLUDED.scalars,"
              + " signature = EXCLUDED.signature");
    }
    sql.append(
        ") INSERT INTO trestle_entity (table_id, partition_key, row_key, ticks, properties)"
            + " SELECT CAST(table_id AS bigint), partition_key, row_key, CAST(ticks AS bigint),"
            + " CAST(properties AS jsonb) FROM v");
    if (replace) {
      sql.append(
          " ON CONFLICT (table_id, partition_key, row_key) DO UPDATE SET ticks = EXCLUDED.ticks,"
              + " properties = EXCLUDED.properties");
    }
    return sql.toString();
  }

  @Override
  public long committed() {
    return committed;
  }

  @Override
  public void close() {
    try {
      flush();
    } finally {
      if (inFlight != null) {
        inFlight.close();
      }
    }
  }
}
