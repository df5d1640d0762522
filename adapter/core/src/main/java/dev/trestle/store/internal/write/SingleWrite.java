package dev.trestle.store.internal.write;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableOperation.Kind;
import dev.trestle.store.internal.codec.ETags;
import dev.trestle.store.internal.codec.StoredRow;
import dev.trestle.store.internal.database.EntityStatements;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.store.internal.read.PointReader;
import dev.trestle.store.internal.read.PointReader.Found;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * One operation on one entity, each in one statement where its semantics allow: insert,
 * insert-or-replace, replace and delete (If-Match the statement's condition) write without reading
 * first; a merge reads the stored version, then writes the merged properties over exactly that
 * version. Only an insert runs in auto-commit: every other write commits only when its caller
 * commits, so that a statement delayed on the network after its caller gave up (answered
 * ServerBusy) can never take effect after writes acknowledged since; a late insert meets the key.
 * New versions are decided in the statement from the stored row (see {@link
 * dev.trestle.store.internal.codec.VersionClock}). A statement that changed nothing is explained by
 * reading the entity: the error it calls for, or, when the entity changed in between, null for the
 * caller to decide again.
 */
final class SingleWrite {
  private final Store store;
  private final EntityStatements statements;
  private final String account;
  private final String nameKey;
  private final String tableName;
  private final PointReader reader;

  SingleWrite(Store store, String account, String tableName) {
    this.store = store;
    this.statements = store.statements;
    this.account = account;
    this.nameKey = TableLookup.nameKey(tableName);
    this.tableName = tableName;
    this.reader = new PointReader(store, account, tableName);
  }

  /**
   * The stored entity, or null when the premise changed under the write (decide again); throws the
   * operation's error, or a DataAccessException (a duplicate key of a racing insert: decide again).
   */
  TableEntity write(DSLContext sql, TableOperation operation) {
    TableEntity entity = operation.entity();
    return switch (operation.kind()) {
      case INSERT -> insert(sql, entity);
      case UPSERT_REPLACE -> upsertReplace(sql, entity);
      case UPDATE -> replace(sql, entity, operation.ifMatch());
      case MERGE, UPSERT_MERGE -> merge(sql, operation);
      case DELETE -> delete(sql, entity, operation.ifMatch());
    };
  }

  private TableEntity insert(DSLContext sql, TableEntity entity) {
    try {
      return insertNew(sql, entity);
    } catch (DataAccessException e) {
      if (store.errors.isDuplicateKey(e)) {
        throw StoreErrors.entityAlreadyExists();
      }
      throw e;
    }
  }

  /** Inserts the entity as new; a duplicate key fails with the database's error. */
  private TableEntity insertNew(DSLContext sql, TableEntity entity) {
    long ticks = store.versions.now();
    String document = store.properties.encode(entity.properties());
    int inserted =
        jdbc(
            sql,
            connection -> {
              try (PreparedStatement insert = connection.prepareStatement(statements.insert)) {
                insert.setString(1, store.dialect.encodeText(entity.partitionKey()));
                insert.setString(2, store.dialect.encodeText(entity.rowKey()));
                insert.setLong(3, ticks);
                insert.setString(4, document);
                insert.setString(5, account);
                insert.setString(6, nameKey);
                return insert.executeUpdate();
              }
            });
    if (inserted == 0) {
      throw StoreErrors.tableNotFound();
    }
    return stored(entity, ticks, entity.properties());
  }

  private TableEntity upsertReplace(DSLContext sql, TableEntity entity) {
    long now = store.versions.now();
    String document = store.properties.encode(entity.properties());
    Long ticks =
        jdbc(
            sql,
            connection -> {
              try (PreparedStatement upsert =
                  connection.prepareStatement(statements.upsertReplace)) {
                upsert.setString(1, store.dialect.encodeText(entity.partitionKey()));
                upsert.setString(2, store.dialect.encodeText(entity.rowKey()));
                upsert.setLong(3, now);
                upsert.setString(4, document);
                upsert.setString(5, account);
                upsert.setString(6, nameKey);
                return ticks(upsert);
              }
            });
    if (ticks == null) {
      throw StoreErrors.tableNotFound();
    }
    return stored(entity, ticks, entity.properties());
  }

  private TableEntity replace(DSLContext sql, TableEntity entity, String ifMatch) {
    Long expected = ETags.ticksNamed(ifMatch);
    if (expected == null && !ETags.matchesAny(ifMatch)) {
      return unchanged(sql, entity, ifMatch); // an ETag that is not ours matches no version
    }
    Long ticks = replace(sql, entity, entity.properties(), expected);
    return ticks == null
        ? unchanged(sql, entity, ifMatch)
        : stored(entity, ticks, entity.properties());
  }

  /** Writes the properties over the stored version {@code expected} (any when null). */
  private Long replace(
      DSLContext sql, TableEntity entity, Map<String, PropertyValue> properties, Long expected) {
    long now = store.versions.now();
    String document = store.properties.encode(properties);
    return jdbc(
        sql,
        connection -> {
          try (PreparedStatement update =
              connection.prepareStatement(
                  expected == null ? statements.replaceAny : statements.replaceIfVersion)) {
            update.setLong(1, now);
            update.setString(2, document);
            update.setString(3, account);
            update.setString(4, nameKey);
            update.setString(5, store.dialect.encodeText(entity.partitionKey()));
            update.setString(6, store.dialect.encodeText(entity.rowKey()));
            if (expected != null) {
              update.setLong(7, expected);
            }
            return ticks(update);
          }
        });
  }

  private TableEntity merge(DSLContext sql, TableOperation operation) {
    TableEntity entity = operation.entity();
    Found found = reader.find(sql, entity.partitionKey(), entity.rowKey());
    if (!found.table()) {
      throw StoreErrors.tableNotFound();
    }
    if (!found.entity()) {
      if (operation.kind() == Kind.MERGE) {
        throw StoreErrors.resourceNotFound();
      }
      return insertNew(sql, entity); // a racing insert's duplicate key: decide again
    }
    if (operation.kind() == Kind.MERGE && !ETags.matches(operation.ifMatch(), found.ticks())) {
      throw StoreErrors.updateConditionNotSatisfied();
    }
    Map<String, PropertyValue> merged =
        new LinkedHashMap<>(
            store.properties.decodeRow(
                found.document(), tableName, entity.partitionKey(), entity.rowKey()));
    merged.putAll(entity.properties());
    Long ticks = replace(sql, entity, merged, found.ticks());
    return ticks == null ? null : stored(entity, ticks, merged);
  }

  private TableEntity delete(DSLContext sql, TableEntity entity, String ifMatch) {
    Long expected = ETags.ticksNamed(ifMatch);
    if (expected == null && !ETags.matchesAny(ifMatch)) {
      return unchanged(sql, entity, ifMatch);
    }
    int deleted =
        jdbc(
            sql,
            connection -> {
              try (PreparedStatement delete =
                  connection.prepareStatement(
                      expected == null ? statements.deleteAny : statements.deleteIfVersion)) {
                delete.setString(1, account);
                delete.setString(2, nameKey);
                delete.setString(3, store.dialect.encodeText(entity.partitionKey()));
                delete.setString(4, store.dialect.encodeText(entity.rowKey()));
                if (expected != null) {
                  delete.setLong(5, expected);
                }
                return delete.executeUpdate();
              }
            });
    return deleted == 1
        ? TableEntity.builder(entity.partitionKey(), entity.rowKey()).build()
        : unchanged(sql, entity, ifMatch);
  }

  /**
   * Why a conditional write changed nothing, from the entity as it is now: its error, or null when
   * the version it names is there now (the entity changed between the write and this read).
   */
  private TableEntity unchanged(DSLContext sql, TableEntity entity, String ifMatch) {
    Found found = reader.find(sql, entity.partitionKey(), entity.rowKey());
    if (!found.table()) {
      throw StoreErrors.tableNotFound();
    }
    if (!found.entity()) {
      throw StoreErrors.resourceNotFound();
    }
    if (!ETags.matches(ifMatch, found.ticks())) {
      throw StoreErrors.updateConditionNotSatisfied();
    }
    return null;
  }

  /** The ticks a statement returning them answered, or null when it wrote no row. */
  private static Long ticks(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      return rows.next() ? rows.getLong(1) : null;
    }
  }

  private <T> T jdbc(DSLContext sql, org.jooq.ConnectionCallable<T> work) {
    return store.withConnection(sql, work);
  }

  private static TableEntity stored(
      TableEntity entity, long ticks, Map<String, PropertyValue> properties) {
    return new StoredRow(entity.partitionKey(), entity.rowKey(), ticks, properties).toEntity();
  }
}
