package dev.trestle.store.internal.postgresql;

import dev.trestle.store.internal.codec.PropertyCodec;
import dev.trestle.store.internal.database.DatabaseType;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.IndexBuilder;
import dev.trestle.store.internal.database.PropertyIndex;
import dev.trestle.store.internal.database.SqlStates;
import java.util.Set;
import org.jooq.DSLContext;

/**
 * PostgreSQL: properties in jsonb, pages read through a server-side cursor ({@link CursorScan}),
 * and the optional GIN index on the properties ({@link GinPropertyIndex}).
 */
public final class PostgresDatabaseType extends DatabaseType {
  private static final SqlStates STANDARD_STATES =
      SqlStates.of(
          Set.of(
              "57P01", "57P02", "57P03", // admin shutdown, crash shutdown, cannot connect now
              "57P05", // idle session timeout: the server closed the connection
              "57014", // a statement cancelled (a statement_timeout of the database's)
              "25006", // read-only: a standby after a failover, default_transaction_read_only
              "53000", "53100", "53200", "53300", "53400"), // out of disk, memory, connections
          Set.of(), // 23503, the standard state
          Set.of("40P01")); // deadlock detected

  private static final SqlStates STATES = new PostgresSqlStates(STANDARD_STATES);

  public PostgresDatabaseType() {
    super("PostgreSQL", new PostgresDialect(), STATES, CursorScan.THROUGH_CURSOR);
  }

  @Override
  public boolean boundsSilence() {
    return true;
  }

  @Override
  public PropertyIndex propertyIndex(DSLContext sql, Dialect dialect, PropertyCodec codec) {
    return new GinPropertyIndex(sql, dialect, codec, GinPropertyIndex.RECHECK);
  }

  @Override
  public IndexBuilder indexBuilder(Dialect dialect) {
    return new PostgresIndexBuilder(dialect);
  }
}
