package dev.trestle.store.internal;

import dev.trestle.EdmType;
import dev.trestle.PropertyIndexInfo;
import dev.trestle.PropertyIndexInfo.State;
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
  private final Store store;
  private final String account;

  IndexDeclarations(Store store, String account) {
    this.store = store;
    this.account = account;
  }

  PropertyIndexInfo create(String tableName, String property, EdmType type) {
    ValueKind kind = validated(property, type);
    Record2<Long, String> table = table(tableName);
    DeclaredIndex declared =
        IndexCatalogue.declare(store.sql, table.value1(), property, kind, type, Ticks.now());
    IndexBuilder builder = store.indexBuilder;
    if (builder.builds() && !declared.ready()) {
      builder.build(store, declared);
      IndexCatalogue.markReady(store.sql, declared);
    }
    return info(
        table.value2(),
        IndexCatalogue.find(store.sql, table.value1(), property, kind).orElse(declared));
  }

  boolean drop(String tableName, String property, EdmType type) {
    ValueKind kind = validated(property, type);
    Record2<Long, String> table = table(tableName);
    Optional<DeclaredIndex> declared =
        IndexCatalogue.find(store.sql, table.value1(), property, kind);
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
    return new PropertyIndexInfo(tableName, index.property(), index.declaredType(), state, size);
  }

  private static ValueKind validated(String property, EdmType type) {
    Objects.requireNonNull(property, "property");
    Objects.requireNonNull(type, "type");
    PropertyNames.validate(property);
    return ValueKind.declared(property, type);
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
