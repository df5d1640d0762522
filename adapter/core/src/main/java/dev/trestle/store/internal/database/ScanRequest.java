package dev.trestle.store.internal.database;

import dev.trestle.store.internal.codec.StoredEntity;
import java.util.List;
import org.jooq.Condition;

/**
 * What one query page reads: the table, the translated filter and key range, the condition the
 * property index serves ({@link PropertyIndex#candidates}, null when none), the selected
 * properties, the table's name as the caller gave it (for messages about its rows; null when
 * unknown), a text naming the candidates (table, ready indexes, filter) under which their row
 * estimate is remembered ({@link RowEstimates}; null: asked for on every page), the scan's shape
 * when its filter compares only the keys (null: none), and the filter's necessary condition on the
 * scalar store's row under the alias {@code s} ({@code ScalarPrefilter}; null: the scan reads the
 * entity rows alone).
 */
public record ScanRequest(
    Store store,
    QueryLimits limits,
    long tableId,
    Condition filter,
    Condition keyRange,
    Condition candidates,
    List<String> select,
    PageBudget budget,
    String tableName,
    String candidatesKey,
    ScanShape shape,
    Condition prefilter) {

  /** A request of no particular shape (its statements rendered per page). */
  public ScanRequest(
      Store store,
      QueryLimits limits,
      long tableId,
      Condition filter,
      Condition keyRange,
      Condition candidates,
      List<String> select,
      PageBudget budget,
      String tableName,
      String candidatesKey) {
    this(
        store,
        limits,
        tableId,
        filter,
        keyRange,
        candidates,
        select,
        budget,
        tableName,
        candidatesKey,
        null,
        null);
  }

  /** A request whose candidates' estimate is not remembered. */
  public ScanRequest(
      Store store,
      QueryLimits limits,
      long tableId,
      Condition filter,
      Condition keyRange,
      Condition candidates,
      List<String> select,
      PageBudget budget,
      String tableName) {
    this(store, limits, tableId, filter, keyRange, candidates, select, budget, tableName, null);
  }

  /** A request whose page budget starts now, for a table named by its id only. */
  public ScanRequest(
      Store store,
      QueryLimits limits,
      long tableId,
      Condition filter,
      Condition keyRange,
      Condition candidates,
      List<String> select) {
    this(
        store,
        limits,
        tableId,
        filter,
        keyRange,
        candidates,
        select,
        new PageBudget(limits.budget()),
        null,
        null);
  }

  /** The same request walking its whole key range, without the index's candidates. */
  public ScanRequest withoutCandidates() {
    return new ScanRequest(
        store, limits, tableId, filter, keyRange, null, select, budget, tableName, null, shape,
        prefilter);
  }

  /**
   * Whether the filter compares more than the keys: then a walk of the key range may pass rows that
   * do not match.
   */
  public boolean filtersProperties() {
    // a shape is only given to a scan whose filter is its key range (and jOOQ's equals renders)
    return shape == null && !filter.equals(keyRange);
  }

  /** The stored size of a properties column value, which the page budget counts. */
  public long storedBytes(Object propertiesColumnValue) {
    return propertiesColumnValue == null
        ? 0
        : store.dialect.propertiesText(propertiesColumnValue).length();
  }

  /**
   * The entity of one read row, from its stored (encoded) keys, version ticks and properties column
   * value; its properties stay undecoded until a caller asks for them.
   */
  /** As {@link #entity(String, String, long, Object)}, the properties as the column's UTF-8. */
  public StoredEntity entityOfUtf8(
      String storedPartitionKey, String storedRowKey, long ticks, byte[] utf8) {
    Dialect dialect = store.dialect;
    return StoredEntity.ofUtf8(
        dialect.decodeText(storedPartitionKey),
        dialect.decodeText(storedRowKey),
        ticks,
        utf8,
        store.properties,
        tableName != null ? tableName : "#" + tableId);
  }

  public StoredEntity entity(
      String storedPartitionKey, String storedRowKey, long ticks, Object propertiesColumnValue) {
    Dialect dialect = store.dialect;
    return new StoredEntity(
        dialect.decodeText(storedPartitionKey),
        dialect.decodeText(storedRowKey),
        ticks,
        dialect.propertiesText(propertiesColumnValue),
        store.properties,
        tableName != null ? tableName : "#" + tableId);
  }
}
