package dev.trestle.store.internal;

import dev.trestle.TableService;
import dev.trestle.TableServiceBuilder;

/** The SQL implementation of {@link TableService}. Private API. No compatibility guarantees. */
public final class SqlTableService {
  private SqlTableService() {}

  public static TableService open(TableServiceBuilder.Settings settings) {
    throw new UnsupportedOperationException("store not built yet");
  }
}
