package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles an insert (one entity or one all-or-nothing batch) that timed out or lost its connection
 * after it was sent, instead of retrying it blindly as the Azure SDKs do (a retry of an applied
 * insert answers 409 EntityAlreadyExists, and the copy would stop on its own write). The entities
 * are read back: all there exactly as sent means applied, none there means not applied and safe to
 * send again; anything else (another writer, a value the service stores differently) leaves the
 * original failure standing.
 */
final class InsertDoubts {
  private static final Logger LOG = LoggerFactory.getLogger(InsertDoubts.class);

  /** Doubtful attempts settled as "not applied" that are sent again, at most. */
  private static final int MAX_RESENDS = 3;

  private InsertDoubts() {}

  static void resolve(
      RemoteTables remote, String table, List<TableEntity> entities, Runnable insert) {
    for (int resends = 0; ; resends++) {
      try {
        insert.run();
        return;
      } catch (RemoteTables.RemoteException doubt) {
        if (!doubt.mayHaveBeenApplied() || resends == MAX_RESENDS) {
          throw doubt;
        }
        switch (stored(remote, table, entities)) {
          case ALL_AS_SENT -> {
            LOG.warn(
                "{}; the {} entities read back are stored as sent: it was applied",
                doubt.getMessage(),
                entities.size());
            return;
          }
          case NONE -> LOG.warn("{}; none of it is stored: sending it again", doubt.getMessage());
          case OTHERWISE -> throw doubt;
        }
      }
    }
  }

  private enum Stored {
    ALL_AS_SENT,
    NONE,
    OTHERWISE
  }

  private static Stored stored(RemoteTables remote, String table, List<TableEntity> entities) {
    int found = 0;
    for (TableEntity sent : entities) {
      Optional<TableEntity> stored = remote.entity(table, sent.partitionKey(), sent.rowKey());
      if (stored.isPresent()) {
        if (!stored.get().properties().equals(sent.properties())) {
          return Stored.OTHERWISE;
        }
        found++;
      } else if (found > 0) {
        return Stored.OTHERWISE;
      }
    }
    return found == 0
        ? Stored.NONE
        : found == entities.size() ? Stored.ALL_AS_SENT : Stored.OTHERWISE;
  }
}
