package dev.trestle.testing;

import dev.trestle.TableService;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.codec.VersionClock;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import java.time.Clock;
import java.util.UUID;

/** Services on a test database whose versions and expiry come from a test's clock. */
public final class ClockedServices {
  private ClockedServices() {}

  /** A service for a fresh account, closed by the caller. */
  public static TableService open(TestDatabase database, Clock clock, boolean extensions) {
    return open(database, clock, extensions, "acct" + UUID.randomUUID().toString().substring(0, 8));
  }

  public static TableService open(
      TestDatabase database, Clock clock, boolean extensions, String account) {
    return SqlTableService.open(
        StoreSettings.onDataSource(database.dataSource(), account).withExtensions(extensions),
        QueryLimits.SERVICE,
        new VersionClock(clock));
  }

  /** The store under a service, for a test of the store's own classes; closed by the caller. */
  public static Store store(TestDatabase database, Clock clock) {
    return Store.open(
        StoreSettings.onDataSource(database.dataSource(), "store"),
        QueryLimits.SERVICE,
        new VersionClock(clock));
  }
}
