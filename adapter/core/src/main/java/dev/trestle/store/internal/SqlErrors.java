package dev.trestle.store.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.jooq.exception.DataAccessException;

/** Reads what a database error means from its SQLState, in one place for both databases. */
final class SqlErrors {
  /**
   * States that say the database or the way to it is gone, not that the statement was wrong: PostgreSQL's
   * shutdowns and connection limits, H2's closed or broken database.
   */
  private static final Set<String> UNAVAILABLE_STATES = Set.of(
      "57P01", "57P02", "57P03", // admin shutdown (a terminated backend too), crash shutdown, cannot connect now
      "57P05", // idle session timeout: the server closed the connection
      "53300", // too many connections
      "90098", "90121", "90067"); // H2: database closed, database called at shutdown, connection broken

  private SqlErrors() {}

  /**
   * The database cannot be reached, is restarting or refuses connections, or the pool had no connection within
   * its wait: nothing the client did, and worth retrying later (SQLState class 08 and the states above).
   */
  static boolean isUnavailable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
        return true;
      }
    }
    String state = sqlState(e);
    return state != null && (state.startsWith("08") || UNAVAILABLE_STATES.contains(state));
  }

  /**
   * The typed error a database failure becomes when it is the database's fault rather than the request's:
   * {@code ServerBusy}, which the Azure SDKs retry with back-off; otherwise the failure itself. A write whose
   * commit met such a failure may or may not have committed, and is reported this way too, never as a success.
   */
  static RuntimeException translate(RuntimeException e) {
    if (e instanceof TableException || !isUnavailable(e)) {
      return e;
    }
    return new TableException(TableErrorCode.SERVER_BUSY,
        "The server is busy: its database cannot be reached right now. Please retry.", e);
  }

  /** A unique or primary-key violation: someone else holds the key. */
  static boolean isDuplicateKey(Throwable e) {
    return "23505".equals(sqlState(e));
  }

  /** A foreign-key violation: the table row the entity refers to is gone (PostgreSQL 23503, H2 23506). */
  static boolean isMissingParent(Throwable e) {
    String state = sqlState(e);
    return "23503".equals(state) || "23506".equals(state);
  }

  /** Serialization failure, deadlock or lock timeout: the transaction may simply be run again. */
  static boolean isTransient(Throwable e) {
    String state = sqlState(e);
    return state != null && (state.equals("40001") || state.equals("40P01") || state.equals("HYT00"));
  }

  /** A statement cancelled for running past its time limit (PostgreSQL 57014; H2 57014 too). */
  static boolean isCancelled(Throwable e) {
    return "57014".equals(sqlState(e));
  }

  static String sqlState(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        return sql.getSQLState();
      }
      if (t instanceof DataAccessException dae && dae.sqlState() != null && !"99999".equals(dae.sqlState())) {
        return dae.sqlState();
      }
    }
    return null;
  }
}
