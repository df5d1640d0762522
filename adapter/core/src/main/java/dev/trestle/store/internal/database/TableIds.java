package dev.trestle.store.internal.database;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The catalog ids of tables this store has seen, by account and name key, so a point read can seek
 * its entity by id without looking the catalog up. Only a hint, safe however stale: ids come from
 * an identity column and are never given to another table, and deleting a table deletes its
 * entities in the same statement (ON DELETE CASCADE). So a read by the id of a table that another
 * server has since deleted, or deleted and created again under the same name, finds no entity, and
 * the reader then asks the catalog, which has the last word (and the new id). A row found by id
 * belongs to the table of that id, as it was when the statement read it.
 */
public final class TableIds {
  /** Past this many names the hints are dropped and learnt again: a bound, not a tuning knob. */
  private static final int MOST = 10_000;

  private final ConcurrentMap<Key, Long> ids = new ConcurrentHashMap<>();

  /** The id last seen for the table, or {@code null}. */
  public Long seen(String account, String nameKey) {
    return ids.get(key(account, nameKey));
  }

  /** Records the id the catalog gave for the table. */
  public void saw(String account, String nameKey, long id) {
    if (ids.size() >= MOST) {
      ids.clear();
    }
    ids.put(key(account, nameKey), id);
  }

  /** Forgets the table, which the catalog did not have. */
  public void forget(String account, String nameKey) {
    ids.remove(key(account, nameKey));
  }

  private static Key key(String account, String nameKey) {
    return new Key(account, nameKey);
  }

  private record Key(String account, String nameKey) {}
}
