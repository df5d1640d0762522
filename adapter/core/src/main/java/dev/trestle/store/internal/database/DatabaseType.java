package dev.trestle.store.internal.database;

import dev.trestle.store.internal.codec.PropertyCodec;
import org.jooq.DSLContext;

/**
 * One database Trestle supports: it recognises the database from JDBC metadata and makes the parts that differ
 * there. Each lives in its own package, registered for {@link java.util.ServiceLoader}; nothing outside that
 * package names a database.
 */
public interface DatabaseType {
  /** The database's name as people write it, e.g. {@code PostgreSQL}. */
  String name();

  /** Whether a connection whose {@code DatabaseMetaData.getDatabaseProductName()} is this is this database. */
  boolean recognises(String productName);

  /** The folder under {@code dev/trestle/migrations/} holding this database's Flyway migrations. */
  String migrationFolder();

  /** The SQL that differs on this database: text encoding, the properties column, typed comparisons. */
  Dialect dialect();

  /** The SQLStates this database uses for what the store must tell apart. */
  SqlStates sqlStates();

  /** How a query page is read on this database. */
  PageReader pageReader();

  /** The optional index on entity properties that narrows a filter's candidates; none unless overridden. */
  default PropertyIndex propertyIndex(DSLContext sql, Dialect dialect, PropertyCodec codec) {
    return PropertyIndex.NONE;
  }
}
