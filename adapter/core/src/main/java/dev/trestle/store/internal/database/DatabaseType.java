package dev.trestle.store.internal.database;

import dev.trestle.store.internal.codec.PropertyCodec;
import java.util.Locale;
import javax.sql.DataSource;
import org.jooq.DSLContext;

/**
 * One database Trestle supports: it recognises the database from JDBC metadata and makes the parts
 * that differ there. Each lives in its own package, registered for {@link java.util.ServiceLoader}
 * (so a subclass has a public no-argument constructor); nothing outside that package names a
 * database.
 */
public abstract class DatabaseType {
  private final String name;
  private final Dialect dialect;
  private final SqlStates sqlStates;
  private final PageReader pageReader;

  protected DatabaseType(String name, Dialect dialect, SqlStates sqlStates, PageReader pageReader) {
    this.name = name;
    this.dialect = dialect;
    this.sqlStates = sqlStates;
    this.pageReader = pageReader;
  }

  /** The database's name as people write it, e.g. {@code PostgreSQL}. */
  public final String name() {
    return name;
  }

  /**
   * Whether a connection whose {@code DatabaseMetaData.getDatabaseProductName()} is this is this
   * database.
   */
  public boolean recognises(String productName) {
    return productName.equalsIgnoreCase(name);
  }

  /**
   * The folder under {@code dev/trestle/migrations/} holding this database's Flyway migrations: its
   * name.
   */
  public String migrationFolder() {
    return name.toLowerCase(Locale.ROOT);
  }

  /**
   * The SQL that differs on this database: text encoding, the properties column, typed comparisons.
   */
  public final Dialect dialect() {
    return dialect;
  }

  /** How this database reports the failures the store must tell apart. */
  public final SqlStates sqlStates() {
    return sqlStates;
  }

  /** How a query page is read on this database. */
  public final PageReader pageReader() {
    return pageReader;
  }

  /**
   * Whether a call bounds how long its connection waits for the database to answer (a JDBC network
   * timeout), so that a database gone silent across the network fails calls with ServerBusy instead
   * of holding them until TCP gives up; not for a database in the same process.
   */
  public boolean boundsSilence() {
    return false;
  }

  /**
   * The data source the store uses: the given one, or one that orders writers where the database
   * needs it to keep a crash from saving half a transaction (H2).
   */
  public DataSource writersOf(DataSource dataSource) {
    return dataSource;
  }

  /**
   * What keeps a read of several statements from seeing half a group write; none unless overridden.
   */
  public GroupGuard groupGuard() {
    return GroupGuard.NONE;
  }

  /**
   * The optional index on entity properties that narrows a filter's candidates; none unless
   * overridden.
   */
  public PropertyIndex propertyIndex(DSLContext sql, Dialect dialect, PropertyCodec codec) {
    return PropertyIndex.NONE;
  }

  /**
   * How this database builds declared property indexes and reads through them; none (declarations
   * kept, queries scan) unless overridden.
   */
  public IndexBuilder indexBuilder(Dialect dialect) {
    return IndexBuilder.NONE;
  }
}
