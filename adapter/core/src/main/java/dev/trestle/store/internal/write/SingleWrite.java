package dev.trestle.store.internal.write;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableOperation.Kind;
import dev.trestle.store.internal.codec.ETags;
import dev.trestle.store.internal.codec.ScalarDocument;
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

  /** Runs between an insert's duplicate key and the read that explains it: a test's race. */
  private final Runnable afterDuplicateKey;

  SingleWrite(Store store, String account, String tableName) {
    this(store, account, tableName, () -> {});
  }

  SingleWrite(Store store, String account, String tableName, Runnable afterDuplicateKey) {
    this.afterDuplicateKey = afterDuplicateKey;
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

  /**
   * Inserts the entity; over an expired one as over none. In a table with time to live, a key met
   * but absent by the time it is read (the sweep removed the expired entity in between) is free:
   * the insert tries again rather than answer that the entity exists.
   */
  private TableEntity insert(DSLContext sql, TableEntity entity) {
    try {
      return insertNew(sql, entity);
    } catch (DataAccessException e) {
      if (!store.errors.isDuplicateKey(e)) {
        throw e;
      }
      afterDuplicateKey.run();
      Found found = reader.find(sql, entity.partitionKey(), entity.rowKey());
      if (found.expired()) {
        removeExpired(sql, entity, found.ticks());
      } else if (found.entity() || !found.expiry().enabled()) {
        throw StoreErrors.entityAlreadyExists();
      }
      return insertAgain(sql, entity);
    }
  }

  /**
   * The second attempt, once the key was found free: a duplicate key now means another insert took
   * it in between, and that entity exists (rather than the database's error reaching the client).
   */
  private TableEntity insertAgain(DSLContext sql, TableEntity entity) {
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
                bindScalars(insert, 7, document);
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
                bindScalars(upsert, 7, document);
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
    Long ticks = replace(sql, entity, entity.properties(), expected, false);
    if (ticks != null) {
      return stored(entity, ticks, entity.properties());
    }
    Found found = decidable(sql, entity, ifMatch);
    if (found == null) {
      return null;
    }
    ticks = replace(sql, entity, entity.properties(), found.ticks(), true);
    return ticks == null ? null : stored(entity, ticks, entity.properties());
  }

  /**
   * Writes the properties over the stored version {@code expected} (any when null); unless {@code
   * decided} (that version was read and is alive), never in a table with time to live.
   */
  private Long replace(
      DSLContext sql,
      TableEntity entity,
      Map<String, PropertyValue> properties,
      Long expected,
      boolean decided) {
    long now = store.versions.now();
    String document = store.properties.encode(properties);
    return jdbc(
        sql,
        connection -> {
          try (PreparedStatement update =
              connection.prepareStatement(
                  decided
                      ? statements.replaceDecided
                      : expected == null ? statements.replaceAny : statements.replaceIfVersion)) {
            update.setLong(1, now);
            update.setString(2, document);
            update.setString(3, account);
            update.setString(4, nameKey);
            update.setString(5, store.dialect.encodeText(entity.partitionKey()));
            update.setString(6, store.dialect.encodeText(entity.rowKey()));
            if (expected != null) {
              update.setLong(7, expected);
            }
            bindScalars(update, expected != null ? 8 : 7, document);
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
      if (found.expired()) {
        removeExpired(sql, entity, found.ticks());
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
    Long ticks = replace(sql, entity, merged, found.ticks(), true);
    return ticks == null ? null : stored(entity, ticks, merged);
  }

  private TableEntity delete(DSLContext sql, TableEntity entity, String ifMatch) {
    Long expected = ETags.ticksNamed(ifMatch);
    if (expected == null && !ETags.matchesAny(ifMatch)) {
      return unchanged(sql, entity, ifMatch);
    }
    if (delete(sql, entity, expected, false) == 1) {
      return TableEntity.builder(entity.partitionKey(), entity.rowKey()).build();
    }
    Found found = decidable(sql, entity, ifMatch);
    if (found == null) {
      return null;
    }
    return delete(sql, entity, found.ticks(), true) == 1
        ? TableEntity.builder(entity.partitionKey(), entity.rowKey()).build()
        : null;
  }

  /**
   * Deletes the stored version {@code expected} (any when null); unless {@code decided}, never in a
   * table with time to live. Answers the rows deleted.
   */
  private int delete(DSLContext sql, TableEntity entity, Long expected, boolean decided) {
    return jdbc(
        sql,
        connection -> {
          try (PreparedStatement delete =
              connection.prepareStatement(
                  decided
                      ? statements.deleteDecided
                      : expected == null ? statements.deleteAny : statements.deleteIfVersion)) {
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
  }

  /**
   * Why a conditional write changed nothing, from the entity as it is now: its error, or null when
   * the version it names is there now (the entity changed between the write and this read).
   */
  private TableEntity unchanged(DSLContext sql, TableEntity entity, String ifMatch) {
    found(sql, entity, ifMatch);
    return null;
  }

  /**
   * After a write that does not read first changed nothing: the version to write over when the
   * table has time to live (its entity alive and matching), else null (decide again); throws the
   * write's error.
   */
  private Found decidable(DSLContext sql, TableEntity entity, String ifMatch) {
    Found found = found(sql, entity, ifMatch);
    return found.expiry().enabled() ? found : null;
  }

  /** The entity as it is now, or the error of a write of it under {@code ifMatch}. */
  private Found found(DSLContext sql, TableEntity entity, String ifMatch) {
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
    return found;
  }

  /** Deletes exactly the expired version {@code ticks}: a rewrite since is left alone. */
  private void removeExpired(DSLContext sql, TableEntity entity, long ticks) {
    delete(sql, entity, ticks, true);
  }

  /**
   * The scalar document of a write's properties and its signature, bound last where the store keeps
   * them.
   */
  private void bindScalars(PreparedStatement statement, int index, String document)
      throws SQLException {
    if (store.dialect.hasScalarStore()) {
      ScalarDocument.ScalarRow scalar = ScalarDocument.row(document);
      statement.setString(index, scalar.document());
      statement.setLong(index + 1, scalar.signature());
    }
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
    if (properties == entity.properties()) {
      return StoredRow.written(entity, ticks);
    }
    return new StoredRow(entity.partitionKey(), entity.rowKey(), ticks, properties).toEntity();
  }
}
