package dev.trestle.store.internal;

import static dev.trestle.store.internal.database.Schema.ACCESS_POLICIES;
import static dev.trestle.store.internal.database.Schema.ACCOUNT;
import static dev.trestle.store.internal.database.Schema.CREATED;
import static dev.trestle.store.internal.database.Schema.DOCUMENT;
import static dev.trestle.store.internal.database.Schema.NAME;
import static dev.trestle.store.internal.database.Schema.NAME_KEY;
import static dev.trestle.store.internal.database.Schema.SERVICE_PROPERTIES;
import static dev.trestle.store.internal.database.Schema.TABLES;

import dev.trestle.AccessPolicy;
import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.ChangeFeedSweep;
import dev.trestle.EdmType;
import dev.trestle.ExpirySweep;
import dev.trestle.IndexedProperty;
import dev.trestle.PropertyIndexInfo;
import dev.trestle.RawEntity;
import dev.trestle.RelaxedTransactions;
import dev.trestle.ServiceExtensions;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableInfo;
import dev.trestle.TablePage;
import dev.trestle.TableQuery;
import dev.trestle.TableService;
import dev.trestle.model.EntityValidator;
import dev.trestle.model.TableLimits;
import dev.trestle.store.internal.codec.AccessPolicyCodec;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.codec.VersionClock;
import dev.trestle.store.internal.database.DeclaredIndex;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.store.internal.ext.ExpirySweeper;
import dev.trestle.store.internal.ext.SqlServiceExtensions;
import dev.trestle.store.internal.feed.FeedSweeper;
import dev.trestle.store.internal.read.BulkEntityReader;
import dev.trestle.store.internal.read.TableLister;
import dev.trestle.store.internal.write.BulkEntityWriter;
import dev.trestle.store.internal.write.TableDeletion;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.jooq.Record2;
import org.jooq.exception.DataAccessException;

/** The SQL implementation of {@link TableService}: one account's view of a shared {@link Store}. */
public final class SqlTableService implements TableService {
  private final Store store;
  private final String account;
  private final boolean ownsStore;
  private final boolean extensions;
  private final RelaxedTransactions relaxedTransactions;
  private final ExpirySweeper sweeper;
  private final FeedSweeper feedSweeper;

  private SqlTableService(
      Store store,
      String account,
      boolean ownsStore,
      boolean extensions,
      RelaxedTransactions relaxedTransactions) {
    this.store = store;
    this.account = account;
    this.ownsStore = ownsStore;
    this.extensions = extensions;
    this.relaxedTransactions = relaxedTransactions;
    this.sweeper = new ExpirySweeper(store);
    this.feedSweeper = new FeedSweeper(store);
  }

  public static TableService open(StoreSettings settings) {
    return open(settings, QueryLimits.SERVICE);
  }

  public static TableService open(StoreSettings settings, QueryLimits queryLimits) {
    return open(settings, queryLimits, VersionClock.SYSTEM);
  }

  /** A service whose new versions come from {@code versions} (a test's skewed clock). */
  public static TableService open(
      StoreSettings settings, QueryLimits queryLimits, VersionClock versions) {
    return new SqlTableService(
        Store.open(settings, queryLimits, versions),
        settings.account(),
        true,
        settings.extensions(),
        settings.relaxedTransactions());
  }

  @Override
  public String accountName() {
    return account;
  }

  @Override
  public TableService forAccount(String accountName) {
    Objects.requireNonNull(accountName, "accountName");
    if (!TableLimits.ACCOUNT_NAME.matcher(accountName).matches()) {
      throw new IllegalArgumentException(
          "accountName must be 3-24 lower-case letters or digits, as Azure storage account names are; was '"
              + accountName
              + "'.");
    }
    return new SqlTableService(store, accountName, false, extensions, relaxedTransactions);
  }

  @Override
  public TableInfo createTable(String tableName) {
    EntityValidator.validateTableName(tableName);
    long created = Ticks.now();
    try {
      store
          .sql
          .insertInto(TABLES, ACCOUNT, NAME_KEY, NAME, CREATED)
          .values(account, TableLookup.nameKey(tableName), tableName, created)
          .execute();
    } catch (DataAccessException e) {
      if (store.errors.isDuplicateKey(e)) {
        throw StoreErrors.tableAlreadyExists(e);
      }
      throw e;
    }
    return new TableInfo(tableName, Ticks.toInstant(created));
  }

  @Override
  public TableInfo createTableIfNotExists(String tableName) {
    EntityValidator.validateTableName(tableName);
    Optional<TableInfo> existing = getTable(tableName);
    if (existing.isPresent()) {
      return existing.get();
    }
    try {
      return createTable(tableName);
    } catch (TableException e) {
      if (e.errorCode() == TableErrorCode.TABLE_ALREADY_EXISTS) {
        return getTable(tableName).orElseThrow(() -> e);
      }
      throw e;
    }
  }

  @Override
  public void deleteTable(String tableName) {
    List<DeclaredIndex> indexes = indexes().declared(tableName);
    TableDeletion deletion = new TableDeletion(store);
    long tableId = deletion.detach(account, tableName);
    // before the entities go, so that removing them maintains no index of the table
    indexes().dropBuilt(indexes);
    deletion.purge(tableId);
  }

  @Override
  public PropertyIndexInfo createIndex(String tableName, String property, EdmType type) {
    return indexes().create(tableName, List.of(new IndexedProperty(property, type)));
  }

  @Override
  public PropertyIndexInfo createIndex(String tableName, List<IndexedProperty> properties) {
    return indexes().create(tableName, properties);
  }

  @Override
  public boolean dropIndex(String tableName, String property, EdmType type) {
    return indexes().drop(tableName, List.of(new IndexedProperty(property, type)), true);
  }

  @Override
  public boolean dropIndex(String tableName, List<IndexedProperty> properties) {
    return indexes().drop(tableName, properties, false);
  }

  @Override
  public List<PropertyIndexInfo> listIndexes(String tableName) {
    return indexes().list(tableName);
  }

  private IndexDeclarations indexes() {
    return new IndexDeclarations(store, account);
  }

  @Override
  public Optional<TableInfo> getTable(String tableName) {
    return store
        .sql
        .select(NAME, CREATED)
        .from(TABLES)
        .where(TableLookup.row(account, tableName))
        .fetchOptional()
        .map(SqlTableService::tableInfo);
  }

  @Override
  public TablePage queryTables(TableQuery query) {
    return new TableLister(store, account).list(query);
  }

  @Override
  public BulkWriter bulkWriter(String tableName, BulkWriteOptions options) {
    return new BulkEntityWriter(
        store, account, Objects.requireNonNull(tableName, "tableName"), options);
  }

  @Override
  public void readEntities(
      String tableName, String afterPartitionKey, String afterRowKey, Predicate<TableEntity> each) {
    new BulkEntityReader(store, account, Objects.requireNonNull(tableName, "tableName"))
        .read(afterPartitionKey, afterRowKey, Objects.requireNonNull(each, "each"));
  }

  @Override
  public String storedForm() {
    return store.dialect.sqlDialect().family().name();
  }

  @Override
  public void readRawEntities(
      String tableName, String afterPartitionKey, String afterRowKey, Predicate<RawEntity> each) {
    new BulkEntityReader(store, account, Objects.requireNonNull(tableName, "tableName"))
        .readRaw(afterPartitionKey, afterRowKey, Objects.requireNonNull(each, "each"));
  }

  @Override
  public TableClient tableClient(String tableName) {
    return new SqlTableClient(
        store, account, Objects.requireNonNull(tableName, "tableName"), extensions);
  }

  @Override
  public ServiceExtensions extensions() {
    if (!extensions) {
      throw StoreErrors.extensionsOff();
    }
    return new SqlServiceExtensions(store, account, relaxedTransactions);
  }

  @Override
  public List<AccessPolicy> getAccessPolicies(String tableName) {
    String json =
        store
            .sql
            .select(ACCESS_POLICIES)
            .from(TABLES)
            .where(TableLookup.row(account, tableName))
            .fetchOptional()
            .orElseThrow(StoreErrors::tableNotFound)
            .value1();
    return AccessPolicyCodec.decode(json);
  }

  @Override
  public void setAccessPolicies(String tableName, List<AccessPolicy> policies) {
    String json = AccessPolicyCodec.encode(policies);
    int updated =
        store
            .sql
            .update(TABLES)
            .set(ACCESS_POLICIES, json)
            .where(TableLookup.row(account, tableName))
            .execute();
    if (updated == 0) {
      throw StoreErrors.tableNotFound();
    }
  }

  @Override
  public Optional<String> getServiceProperties() {
    return store
        .sql
        .select(DOCUMENT)
        .from(SERVICE_PROPERTIES)
        .where(ACCOUNT.eq(account))
        .fetchOptional(DOCUMENT);
  }

  @Override
  public void setServiceProperties(String document) {
    Objects.requireNonNull(document, "document");
    // Update, else insert; a concurrent first insert makes ours fail, after which the update
    // applies.
    for (int attempt = 0; attempt < 2; attempt++) {
      if (store
              .sql
              .update(SERVICE_PROPERTIES)
              .set(DOCUMENT, document)
              .where(ACCOUNT.eq(account))
              .execute()
          > 0) {
        return;
      }
      try {
        store
            .sql
            .insertInto(SERVICE_PROPERTIES, ACCOUNT, DOCUMENT)
            .values(account, document)
            .execute();
        return;
      } catch (DataAccessException e) {
        if (!store.errors.isDuplicateKey(e)) {
          throw e;
        }
      }
    }
  }

  @Override
  public ExpirySweep expirySweep() {
    return sweeper;
  }

  @Override
  public ChangeFeedSweep changeFeedSweep() {
    return feedSweeper;
  }

  @Override
  public void close() {
    if (ownsStore) {
      store.close();
    }
  }

  private static TableInfo tableInfo(Record2<String, Long> row) {
    return new TableInfo(row.value1(), Ticks.toInstant(row.value2()));
  }
}
