package dev.trestle.store.internal;

import dev.trestle.IndexedProperty;
import dev.trestle.PropertyIndexInfo;
import dev.trestle.PropertyIndexInfo.State;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.model.PropertyNames;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.DeclaredIndex;
import dev.trestle.store.internal.database.IndexBuilder;
import dev.trestle.store.internal.database.IndexCatalogue;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.store.internal.database.ValueKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jooq.Record2;

/**
 * Declaring, building, listing and dropping one account's property indexes: the catalogue row
 * first, then the database's index, then the row marked ready, so that queries only ever read
 * through a built index. Each step can be repeated: a create that was interrupted is finished by
 * the next one.
 */
final class IndexDeclarations {
  /** The most properties one index is declared over (PostgreSQL allows 32 index columns). */
  static final int MAX = 8;

  private final Store store;
  private final String account;

  IndexDeclarations(Store store, String account) {
    this.store = store;
    this.account = account;
  }

  PropertyIndexInfo create(String tableName, List<IndexedProperty> properties) {
    List<DeclaredIndex.Column> columns = validated(properties);
    DeclaredIndex.Column first = columns.get(0);
    List<DeclaredIndex.Column> then = columns.subList(1, columns.size());
    Record2<Long, String> table = table(tableName);
    DeclaredIndex declared =
        IndexCatalogue.declare(
            store.sql,
            table.value1(),
            first.property(),
            first.kind(),
            first.declaredType(),
            then,
            Ticks.now());
    IndexBuilder builder = store.indexBuilder;
    if (builder.builds() && !declared.ready()) {
      builder.build(store, declared);
      IndexCatalogue.markReady(store.sql, declared);
    }
    return info(
        table.value2(),
        IndexCatalogue.find(store.sql, table.value1(), first.property(), first.kind())
            .orElse(declared));
  }

  /**
   * Drops the index led by the first property and kind; when further properties are given, only if
   * they are the index's.
   */
  boolean drop(String tableName, List<IndexedProperty> properties, boolean anyFurther) {
    List<DeclaredIndex.Column> columns = validated(properties);
    DeclaredIndex.Column first = columns.get(0);
    Record2<Long, String> table = table(tableName);
    Optional<DeclaredIndex> declared =
        IndexCatalogue.find(store.sql, table.value1(), first.property(), first.kind())
            .filter(index -> anyFurther || index.hasThen(columns.subList(1, columns.size())));
    if (declared.isEmpty()) {
      return false;
    }
    // The declaration goes first, so that no query plans for the index while it is dropped.
    IndexCatalogue.remove(store.sql, declared.get());
    store.indexBuilder.drop(store, declared.get().indexName());
    return true;
  }

  List<PropertyIndexInfo> list(String tableName) {
    Record2<Long, String> table = table(tableName);
    return IndexCatalogue.declared(store.sql, table.value1()).stream()
        .map(index -> info(table.value2(), index))
        .toList();
  }

  /**
   * Drops the database's indexes of a table whose catalogue rows went with it; after the table's
   * delete committed, since a concurrent drop cannot run inside a transaction.
   */
  void dropBuilt(List<DeclaredIndex> indexes) {
    for (DeclaredIndex index : indexes) {
      store.indexBuilder.drop(store, index.indexName());
    }
  }

  /** The table's declared indexes, read before the table is deleted. */
  List<DeclaredIndex> declared(String tableName) {
    Record2<Long, String> table = find(tableName);
    return table == null ? List.of() : IndexCatalogue.declared(store.sql, table.value1());
  }

  private PropertyIndexInfo info(String tableName, DeclaredIndex index) {
    IndexBuilder builder = store.indexBuilder;
    State state =
        !builder.builds()
            ? State.NOT_BUILT
            : index.ready() && builder.isBuilt(store.sql, index.indexName())
                ? State.READY
                : State.BUILDING;
    OptionalLong size =
        builder.builds() ? builder.size(store.sql, index.indexName()) : OptionalLong.empty();
    List<IndexedProperty> then =
        index.then().stream()
            .map(column -> new IndexedProperty(column.property(), column.declaredType()))
            .toList();
    return new PropertyIndexInfo(
        tableName, index.property(), index.declaredType(), state, size, then);
  }

  /** The properties as index columns: valid names, each property once, at most {@value #MAX}. */
  private static List<DeclaredIndex.Column> validated(List<IndexedProperty> properties) {
    Objects.requireNonNull(properties, "properties");
    if (properties.isEmpty() || properties.size() > MAX) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "An index is declared over 1 to " + MAX + " properties, not " + properties.size() + ".");
    }
    List<DeclaredIndex.Column> columns = new ArrayList<>();
    for (IndexedProperty property : properties) {
      PropertyNames.validate(property.name());
      if (columns.stream().anyMatch(c -> c.property().equals(property.name()))) {
        throw new TableException(
            TableErrorCode.INVALID_INPUT,
            "The index names the property " + property.name() + " twice.");
      }
      columns.add(
          new DeclaredIndex.Column(
              property.name(),
              ValueKind.declared(property.name(), property.type()),
              property.type()));
    }
    return columns;
  }

  private Record2<Long, String> find(String tableName) {
    return store
        .sql
        .select(Schema.TABLE_ID, Schema.NAME)
        .from(Schema.TABLES)
        .where(TableLookup.row(account, tableName))
        .fetchOne();
  }

  private Record2<Long, String> table(String tableName) {
    Record2<Long, String> table = find(tableName);
    if (table == null) {
      throw StoreErrors.tableNotFound();
    }
    return table;
  }
}
