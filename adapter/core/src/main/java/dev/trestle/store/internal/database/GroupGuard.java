package dev.trestle.store.internal.database;

import java.util.Collection;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Keeps a read of several statements from seeing half of an entity-group transaction where the
 * database's own snapshot does not. Writes of several entities to a table (through their commit)
 * and page reads of several statements exclude each other, so no group commits between a read's
 * statements; writes share the table with writes and reads with reads. Where the database's
 * snapshot already covers a transaction's statements (PostgreSQL), there is no guard.
 */
public interface GroupGuard {
  /** No guard: the database's snapshot keeps reads consistent. */
  GroupGuard NONE =
      new GroupGuard() {
        @Override
        public <T> T write(long tableId, Supplier<T> work) {
          return work.get();
        }

        @Override
        public <T> T read(long tableId, Supplier<T> work) {
          return work.get();
        }
      };

  /** Runs a write of several entities to the table, its commit included. */
  <T> T write(long tableId, Supplier<T> work);

  /**
   * Runs a write to several tables (a relaxed transaction), its commit included, under each table's
   * write guard, taken in one global order so that two such writes cannot wait for each other.
   */
  default <T> T writeAll(Collection<Long> tableIds, Supplier<T> work) {
    Supplier<T> nested = work;
    for (long tableId : new TreeSet<>(tableIds).descendingSet()) {
      Supplier<T> inner = nested;
      nested = () -> write(tableId, inner);
    }
    return nested.get();
  }

  /** Runs a read of several statements of the table. */
  <T> T read(long tableId, Supplier<T> work);
}
