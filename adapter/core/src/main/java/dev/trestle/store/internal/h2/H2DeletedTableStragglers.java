package dev.trestle.store.internal.h2;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * H2's foreign-key check of an entity insert reads the catalog row without a lock, so an insert
 * whose check passed just before its table's delete committed still commits its row after the
 * cascade: an entity without its table. Such an insert is in a transaction that was open when the
 * delete committed, and leaves uncommitted rows or a running statement behind it; once every
 * session that had either has moved on, what they left is deleted. Sessions are visible to an H2
 * admin only (Trestle's usual user); for any other user only the delete of what was committed by
 * then remains.
 */
final class H2DeletedTableStragglers {
  private static final Logger LOG = LoggerFactory.getLogger(H2DeletedTableStragglers.class);

  /** How long the delete waits for writers in flight before removing what is there anyway. */
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

  private static final long PAUSE_MILLIS = 5;

  private static final String BUSY_SESSIONS =
      "select session_id, executing_statement_start, contains_uncommitted"
          + " from information_schema.sessions where session_id <> session_id()";

  private H2DeletedTableStragglers() {}

  /** After the delete of the table's catalog row committed, on a connection in auto-commit. */
  static void remove(Connection connection, long tableId) throws SQLException {
    Map<Integer, Object> inFlight = new HashMap<>();
    for (Map.Entry<Integer, Session> session : sessions(connection).entrySet()) {
      if (session.getValue().busy()) {
        inFlight.put(session.getKey(), session.getValue().statementStart());
      }
    }
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(PAUSE_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      Map<Integer, Session> now = sessions(connection);
      inFlight
          .entrySet()
          .removeIf(
              was -> {
                Session session = now.get(was.getKey());
                return session == null || session.movedOnFrom(was.getValue());
              });
    }
    if (!inFlight.isEmpty()) {
      LOG.warn(
          "Table {} deleted while sessions {} stayed in a transaction for {} s: an entity they"
              + " insert into it later stays behind (never served; table ids are not reused)",
          tableId,
          inFlight.keySet(),
          TimeUnit.NANOSECONDS.toSeconds(WAIT_NANOS));
    }
    try (PreparedStatement delete =
        connection.prepareStatement("delete from trestle_entity where table_id = ?")) {
      delete.setLong(1, tableId);
      delete.executeUpdate();
    }
  }

  /** A session's state: the start of the statement it runs (null: none), uncommitted changes. */
  private record Session(Object statementStart, boolean uncommitted) {
    boolean busy() {
      return statementStart != null || uncommitted;
    }

    /** Nothing uncommitted, and the statement running then is over. */
    boolean movedOnFrom(Object startThen) {
      return !uncommitted && (statementStart == null || !Objects.equals(statementStart, startThen));
    }
  }

  private static Map<Integer, Session> sessions(Connection connection) throws SQLException {
    Map<Integer, Session> sessions = new HashMap<>();
    try (Statement select = connection.createStatement();
        ResultSet rows = select.executeQuery(BUSY_SESSIONS)) {
      while (rows.next()) {
        sessions.put(rows.getInt(1), new Session(rows.getObject(2), rows.getBoolean(3)));
      }
    }
    return sessions;
  }
}
