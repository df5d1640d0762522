package dev.trestle.store.internal.h2;

import dev.trestle.store.internal.database.DatabaseType;
import dev.trestle.store.internal.database.GroupGuard;
import dev.trestle.store.internal.database.SqlStates;
import dev.trestle.store.internal.read.EntityScan;
import java.util.Set;
import javax.sql.DataSource;

/**
 * H2: properties as JSON text compared by Java functions, pages read in key-range chunks, no
 * property index.
 */
public final class H2DatabaseType extends DatabaseType {
  private static final SqlStates STATES =
      SqlStates.of(
          Set.of(
              "90098", "90121",
              "90067", // database closed, database called at shutdown, connection broken
              "90097", // the database is read only
              "57014"), // a statement cancelled (its query timeout)
          Set.of("23506"), // referential integrity: parent missing
          Set.of("HYT00"), // lock timeout
          Set.of("90105")); // a filter function (H2Functions) failed on a stored value

  public H2DatabaseType() {
    super("H2", new H2Dialect(), STATES, EntityScan.IN_CHUNKS);
  }

  @Override
  public DataSource writersOf(DataSource dataSource) {
    return OneWriterAtATime.around(dataSource);
  }

  @Override
  public GroupGuard groupGuard() {
    return InProcessGroupGuard.INSTANCE;
  }
}
