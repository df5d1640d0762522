package dev.trestle;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One storage account's tables in a SQL database. Thread-safe; build one per database with {@link
 * #builder()} and share it. Other accounts in the same database are reached with {@link
 * #forAccount(String)}. Closing the service closes the pool it created (never a caller's
 * DataSource).
 */
public interface TableService extends AutoCloseable {

  /** The default account, the storage emulator's well-known {@code devstoreaccount1}. */
  String DEFAULT_ACCOUNT = "devstoreaccount1";

  /**
   * Starts configuring a service; see {@link TableServiceBuilder} for the settings and their
   * defaults.
   */
  static TableServiceBuilder builder() {
    return new TableServiceBuilder();
  }

  /** The storage account this object serves. */
  String accountName();

  /** The same database seen as another account; shares this service's pool. */
  TableService forAccount(String accountName);

  /**
   * Creates a table; {@code TableAlreadyExists} if one exists with that name in any letter case.
   */
  TableInfo createTable(String tableName);

  /**
   * Creates a table unless it exists; returns the table as stored (with its original name casing).
   */
  TableInfo createTableIfNotExists(String tableName);

  /** Deletes a table and all its entities; {@code TableNotFound} if it does not exist. */
  void deleteTable(String tableName);

  /** The table with this name, matched case-insensitively. */
  Optional<TableInfo> getTable(String tableName);

  /**
   * Lists tables in name order, filtered on {@code TableName}, one page per call; {@link
   * #listTables(TableQuery)} follows the continuations for you.
   */
  TablePage queryTables(TableQuery query);

  /**
   * Every table matching the query, in name order, read a page at a time as iteration reaches it
   * (the Azure SDK's {@code listTables}).
   */
  default PagedResults<TableInfo> listTables(TableQuery query) {
    return PagedResults.tables(this, Objects.requireNonNull(query, "query"));
  }

  /** Every table of the account, in name order, read a page at a time. */
  default PagedResults<TableInfo> listTables() {
    return listTables(TableQuery.all());
  }

  /**
   * A client for one table. No I/O; its operations fail with {@code TableNotFound} if the table is
   * missing.
   */
  TableClient tableClient(String tableName);

  /**
   * A writer loading many entities into an existing table in large transactions (see {@link
   * BulkWriter}); {@code TableNotFound} if the table does not exist.
   */
  BulkWriter bulkWriter(String tableName, BulkWriteOptions options);

  /**
   * Hands the table's entities after the key pair (afterPartitionKey, afterRowKey) (both null: from
   * the start) to {@code each}, in key order, until it answers false: the bulk read of copies and
   * exports, in statements of thousands of rows, without the time budget of query pages. Each
   * statement reads one consistent state; the whole read is not one snapshot. {@code TableNotFound}
   * if the table does not exist.
   */
  void readEntities(
      String tableName,
      String afterPartitionKey,
      String afterRowKey,
      java.util.function.Predicate<TableEntity> each);

  /**
   * The form in which this service's database stores entities (the dialect's: PostgreSQL jsonb, H2
   * text); two services of equal forms can pass {@link RawEntity raw entities} to each other.
   */
  String storedForm();

  /**
   * Like {@link #readEntities}, but hands each entity as stored, undecoded: for copies into a
   * service of the same {@link #storedForm()} through {@link BulkWriter#addRaw}.
   */
  void readRawEntities(
      String tableName,
      String afterPartitionKey,
      String afterRowKey,
      java.util.function.Predicate<RawEntity> each);

  /**
   * Declares an index on a property of one table's entities for filters comparing it with values of
   * {@code type} ({@code Timestamp} with {@link EdmType#DATE_TIME} indexes the write time), and
   * builds it: on PostgreSQL without blocking writes, returning when it is ready. Declaring what is
   * declared already returns it (finishing an interrupted build); Int32, Int64 and Double share one
   * index of numbers. {@code TableNotFound} if the table does not exist; {@code InvalidInput} for
   * {@code PartitionKey} and {@code RowKey}, which are always indexed.
   */
  PropertyIndexInfo createIndex(String tableName, String property, EdmType type);

  /**
   * Declares an index over several properties in order, as {@link #createIndex(String, String,
   * EdmType)} declares one over a single property: a filter that compares the first property reads
   * through it, and one that also compares the next ones with {@code and} (say {@code Category eq
   * 'c7' and Price gt 990}) reads only the entities that match both. It also serves every filter an
   * index over its first property alone would, so a table has at most one index led by a given
   * property and kind of value: declaring another is {@code InvalidInput} (drop the first).
   */
  PropertyIndexInfo createIndex(String tableName, List<IndexedProperty> properties);

  /**
   * Drops the declared index led by this property and kind of value, over it alone or with further
   * properties (on PostgreSQL without blocking writes); false when none was declared.
   */
  boolean dropIndex(String tableName, String property, EdmType type);

  /** Drops the index declared over these properties; false when none was. */
  boolean dropIndex(String tableName, List<IndexedProperty> properties);

  /** The table's declared indexes, by property; {@code TableNotFound} if it does not exist. */
  List<PropertyIndexInfo> listIndexes(String tableName);

  /** The table's stored access policies; {@code TableNotFound} if it does not exist. */
  List<AccessPolicy> getAccessPolicies(String tableName);

  /** Replaces the table's stored access policies (at most 5). */
  void setAccessPolicies(String tableName, List<AccessPolicy> policies);

  /**
   * The account's service-properties document as last set, or empty if never set. Opaque to the
   * store.
   */
  Optional<String> getServiceProperties();

  /** Replaces the account's service-properties document, stored as given (opaque to the store). */
  void setServiceProperties(String document);

  /**
   * Trestle's extensions of the account (relaxed transactions across partitions and tables), which
   * Azure does not offer. {@code NotImplemented} when the service was built with {@code
   * extensions(false)}, or does not offer them.
   */
  default ServiceExtensions extensions() {
    throw new TableException(
        TableErrorCode.NOT_IMPLEMENTED, "This TableService offers no Trestle extensions.");
  }

  /**
   * The removal of this service's expired entities (Trestle's time to live), which the caller runs
   * on its schedule; it runs whether or not the extensions are on, as expired entities stay absent
   * either way.
   */
  default ExpirySweep expirySweep() {
    throw new TableException(
        TableErrorCode.NOT_IMPLEMENTED, "This TableService offers no Trestle extensions.");
  }

  /**
   * The removal of changes past their retention from every change feed of the database, which the
   * caller runs on its schedule (as {@code trestle serve} does).
   */
  default ChangeFeedSweep changeFeedSweep() {
    throw new TableException(
        TableErrorCode.NOT_IMPLEMENTED, "This TableService offers no Trestle extensions.");
  }

  /** Closes the pool the service created, if any; a caller's DataSource stays open. */
  @Override
  void close();
}
