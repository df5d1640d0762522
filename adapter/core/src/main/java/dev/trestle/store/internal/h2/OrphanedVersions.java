package dev.trestle.store.internal.h2;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.h2.engine.Database;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.db.MVIndex;
import org.h2.mvstore.db.MVTable;
import org.h2.mvstore.tx.Transaction;
import org.h2.mvstore.tx.TransactionStore;
import org.h2.table.Table;
import org.h2.value.VersionedValue;

/**
 * Puts back the committed value of every row version in an H2 file that belongs to no open
 * transaction. A save of the file taken while a transaction was writing can hold one of its row
 * versions without the undo-log entry that rolls it back at the next open (h2database#2080); H2
 * then shows that version to nobody, except to a later transaction that happens to get the same
 * number, which takes it for its own, and every insert of its key waits for it until the lock
 * timeout. Reverting it gives every reader what H2 already reports as committed. Run once H2 has
 * ended the transactions it found open in the file, and before anything writes.
 */
public final class OrphanedVersions {
  /**
   * Where an operation id keeps its transaction's number (H2's {@code Transaction.LOG_ID_BITS}).
   */
  private static final int TRANSACTION_ID_SHIFT = 40;

  private OrphanedVersions() {}

  /**
   * Reverts the orphaned versions of every table of the embedded H2 database behind the connection
   * and saves the file; returns how many there were.
   */
  public static int revert(Connection connection) throws SQLException {
    if (!(connection.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal session)) {
      return 0; // a database served by another process: its maps are not here to read
    }
    Database database = session.getDatabase();
    TransactionStore transactions = database.getStore().getTransactionStore();
    BitSet open = new BitSet();
    for (Transaction transaction : transactions.getOpenTransactions()) {
      open.set(transaction.getId());
    }
    int reverted = 0;
    for (Table table : database.getAllTablesAndViews()) {
      if (table instanceof MVTable mvTable) {
        for (var index : mvTable.getIndexes()) {
          if (index instanceof MVIndex<?, ?> mvIndex && mvIndex.getMVMap() != null) {
            reverted += revert(mvIndex.getMVMap(), open);
          }
        }
      }
    }
    if (reverted > 0) {
      database.getStore().getMvStore().commit();
    }
    return reverted;
  }

  private static <K, V> int revert(MVMap<K, VersionedValue<V>> map, BitSet open) {
    List<K> keys = new ArrayList<>();
    var cursor = map.cursor(null);
    while (cursor.hasNext()) {
      K key = cursor.next();
      if (orphaned(cursor.getValue(), open)) {
        keys.add(key);
      }
    }
    int reverted = 0;
    for (K key : keys) {
      VersionedValue<V> version = map.get(key);
      if (!orphaned(version, open)) {
        continue;
      }
      V committed = version.getCommittedValue();
      if (committed == null) {
        map.remove(key);
      } else if (committed instanceof VersionedValue<?>) {
        @SuppressWarnings("unchecked") // H2's committed values are their own versions
        VersionedValue<V> committedVersion = (VersionedValue<V>) committed;
        map.put(key, committedVersion);
      } else {
        continue; // not a kind of value H2's tables store
      }
      reverted++;
    }
    return reverted;
  }

  /** A version written by a transaction (an operation id) that is not open. */
  private static boolean orphaned(VersionedValue<?> version, BitSet open) {
    long operationId = version == null ? 0 : version.getOperationId();
    return operationId != 0 && !open.get((int) (operationId >>> TRANSACTION_ID_SHIFT));
  }
}
