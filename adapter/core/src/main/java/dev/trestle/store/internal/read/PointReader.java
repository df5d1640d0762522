package dev.trestle.store.internal.read;

import dev.trestle.TableEntity;
import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.database.Expiry;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.TableLookup;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import org.jooq.DSLContext;

/**
 * Reads one entity by its keys in one statement whose text is built once: the catalog row tells
 * TableNotFound from ResourceNotFound.
 */
public final class PointReader {
  /**
   * What a point read found: whether the table exists, the entity's version and document (none when
   * there is no entity, or when it has expired: then {@code expired} and its version), and the
   * table's time to live.
   */
  public record Found(boolean table, long ticks, String document, Expiry expiry, boolean expired) {
    static final Found NO_TABLE = new Found(false, 0, null, Expiry.NEVER, false);

    public boolean entity() {
      return document != null;
    }
  }

  /** What {@link #row} found: as {@link Found}, the document as the database's UTF-8 bytes. */
  private record FoundBytes(boolean table, long ticks, byte[] utf8, boolean expired) {}

  private final Store store;
  private final String account;
  private final String nameKey;
  private final String tableName;

  public PointReader(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.nameKey = TableLookup.nameKey(tableName);
    this.tableName = tableName;
  }

  /** The entity with the properties named in {@code select} (all when null). */
  public TableEntity get(String partitionKey, String rowKey, Collection<String> select) {
    return row(partitionKey, rowKey).toEntity(select);
  }

  /** The entity as stored, its properties decoded only as a response writes them. */
  public StoredEntity row(String partitionKey, String rowKey) {
    if (!store.dialect.readsDocumentsAsUtf8()) {
      Found found = existing(partitionKey, rowKey);
      return new StoredEntity(
          partitionKey, rowKey, found.ticks(), found.document(), store.properties, tableName);
    }
    // the same checks as existing(), in the same order, on the document's bytes
    FoundBytes found = findBytes(partitionKey, rowKey);
    if (!found.table()) {
      throw StoreErrors.tableNotFound();
    }
    if (found.utf8() == null) {
      throw StoreErrors.resourceNotFound();
    }
    return StoredEntity.ofUtf8(
        partitionKey, rowKey, found.ticks(), found.utf8(), store.properties, tableName);
  }

  /**
   * As {@link #find} on a pooled connection, the document read as the bytes the driver holds: a
   * response copies them, so no String is made of them unless the table has a time to live.
   */
  private FoundBytes findBytes(String partitionKey, String rowKey) {
    return store.withConnection(
        store.sql,
        connection -> {
          try (PreparedStatement read = prepareRead(connection, partitionKey, rowKey)) {
            try (ResultSet row = read.executeQuery()) {
              if (!row.next()) {
                return new FoundBytes(false, 0, null, false);
              }
              byte[] utf8 = row.getBytes(3);
              long ticks = utf8 == null ? 0 : row.getLong(2);
              Expiry expiry = Expiry.of(row.getBoolean(4), row.getObject(5, Long.class));
              if (utf8 != null
                  && expiry.enabled()
                  && expiry.expired(
                      store.properties,
                      ticks,
                      new String(utf8, StandardCharsets.UTF_8),
                      store.versions.time())) {
                return new FoundBytes(true, ticks, null, true);
              }
              return new FoundBytes(true, ticks, utf8, false);
            }
          }
        });
  }

  private Found existing(String partitionKey, String rowKey) {
    Found found = find(store.sql, partitionKey, rowKey);
    if (!found.table()) {
      throw StoreErrors.tableNotFound();
    }
    if (!found.entity()) {
      throw StoreErrors.resourceNotFound();
    }
    return found;
  }

  /** Reads on the context's connection (a pooled one for the store's own context). */
  public Found find(DSLContext context, String partitionKey, String rowKey) {
    return store.withConnection(
        context,
        connection -> {
          try (PreparedStatement read = prepareRead(connection, partitionKey, rowKey)) {
            try (ResultSet row = read.executeQuery()) {
              if (!row.next()) {
                return Found.NO_TABLE;
              }
              String document = row.getString(3);
              long ticks = document == null ? 0 : row.getLong(2);
              Expiry expiry = Expiry.of(row.getBoolean(4), row.getObject(5, Long.class));
              if (document != null
                  && expiry.expired(store.properties, ticks, document, store.versions.time())) {
                return new Found(true, ticks, null, expiry, true);
              }
              return new Found(true, ticks, document, expiry, false);
            }
          }
        });
  }

  /** The point read's statement, bound to the entity's keys and the table. */
  private PreparedStatement prepareRead(Connection connection, String partitionKey, String rowKey)
      throws SQLException {
    PreparedStatement read = connection.prepareStatement(store.statements.read);
    try {
      read.setString(1, store.dialect.encodeText(partitionKey));
      read.setString(2, store.dialect.encodeText(rowKey));
      read.setString(3, account);
      read.setString(4, nameKey);
      return read;
    } catch (SQLException | RuntimeException e) {
      read.close();
      throw e;
    }
  }
}
