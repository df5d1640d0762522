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
  private static final SqlStates STATES =
      SqlStates.of(
          Set.of(
              "57P01", "57P02", "57P03", // admin shutdown, crash shutdown, cannot connect now
              "57P05", // idle session timeout: the server closed the connection
              "53300"), // too many connections
          Set.of(), // 23503, the standard state
          Set.of("40P01")); // deadlock detected

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
