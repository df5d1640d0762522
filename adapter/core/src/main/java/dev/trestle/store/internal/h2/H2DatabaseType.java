package dev.trestle.store.internal.h2;

import dev.trestle.store.internal.database.DatabaseType;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.PageReader;
import dev.trestle.store.internal.database.SqlStates;
import dev.trestle.store.internal.read.EntityScan;
import java.util.Set;

/** H2: properties as JSON text compared by Java functions, pages read in key-range chunks, no property index. */
public final class H2DatabaseType implements DatabaseType {
  private static final Dialect DIALECT = new H2Dialect();
  private static final SqlStates STATES = SqlStates.of(
      Set.of("90098", "90121", "90067"), // database closed, database called at shutdown, connection broken
      Set.of("23506"), // referential integrity: parent missing
      Set.of("HYT00")); // lock timeout

  @Override
  public String name() {
    return "H2";
  }

  @Override
  public boolean recognises(String productName) {
    return productName.equalsIgnoreCase("H2");
  }

  @Override
  public String migrationFolder() {
    return "h2";
  }

  @Override
  public Dialect dialect() {
    return DIALECT;
  }

  @Override
  public SqlStates sqlStates() {
    return STATES;
  }

  @Override
  public PageReader pageReader() {
    return EntityScan.IN_CHUNKS;
  }
}
