package dev.trestle.store.internal.postgresql;

import dev.trestle.store.internal.codec.PropertyCodec;
import dev.trestle.store.internal.database.DatabaseType;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.IndexBuilder;
import dev.trestle.store.internal.database.PropertyIndex;
import org.jooq.DSLContext;

/**
 * PostgreSQL: properties in jsonb, pages read through a server-side cursor ({@link CursorScan}),
 * and the optional GIN index on the properties ({@link GinPropertyIndex}).
 */
public final class PostgresDatabaseType extends DatabaseType {
  public PostgresDatabaseType() {
    super("PostgreSQL", new PostgresDialect(), new PostgresSqlStates(), CursorScan.THROUGH_CURSOR);
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
