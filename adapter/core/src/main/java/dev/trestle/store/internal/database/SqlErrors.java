package dev.trestle.store.internal.database;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import org.jooq.exception.DataAccessException;

/**
 * Reads what a database error means from its SQLState, in one place: the standard states here, the
 * database's own ones from its {@link SqlStates}.
 */
public final class SqlErrors {
  private final SqlStates states;

  SqlErrors(SqlStates states) {
    this.states = states;
  }

  /**
   * The database cannot be reached, is restarting, refuses connections or writes (read only, out of
   * resources), cancelled the statement, or the pool had no connection within its wait: nothing the
   * client did, and worth retrying later (SQLState class 08 and the database's own).
   */
  boolean isUnavailable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException
          || t instanceof SQLNonTransientConnectionException) {
        return true;
      }
    }
    String state = sqlState(e);
    return state != null && (state.startsWith("08") || states.unavailable(state, vendorCode(e)));
  }

  /**
   * The typed error a database failure becomes when it is the database's fault rather than the
   * request's: {@code ServerBusy}, which the Azure SDKs retry with back-off; otherwise the failure
   * itself. A write whose commit met such a failure may or may not have committed, and is reported
   * this way too, never as a success.
   */
  RuntimeException translate(RuntimeException e) {
    if (e instanceof TableException) {
      return e;
    }
    if (isMalformedValue(e)) {
      return new TableException(
          TableErrorCode.INTERNAL_ERROR,
          "A stored value of this table is not of the type its tag says, so the filter cannot"
              + " compare it ("
              + firstLine(e)
              + "). A row was written by SQL in a form Trestle cannot read: reading the table"
              + " without a filter names it; fix or delete it in SQL (see sql/README.md).",
          e);
    }
    if (isTransient(e)) {
      // a lost race (deadlock, lock timeout, serialization failure) that was not, or no longer,
      // run again: retry loops recognise this ServerBusy by its cause
      return new TableException(
          TableErrorCode.SERVER_BUSY,
          "The server is busy: the operation waited too long for concurrent writes. Please retry.",
          e);
    }
    if (!isUnavailable(e)) {
      return e;
    }
    return new TableException(
        TableErrorCode.SERVER_BUSY,
        "The server is busy: its database cannot serve the request right now. Please retry.",
        e);
  }

  /**
   * A data exception (SQLState class 22) or the database's own: every value Trestle binds has its
   * type, so it is a stored value that cannot be converted.
   */
  boolean isMalformedValue(Throwable e) {
    String state = sqlState(e);
    if (state == null || raisedByDriver(e)) {
      return false;
    }
    return state.startsWith("22") || states.malformedValue(state, vendorCode(e));
  }

  private boolean raisedByDriver(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return states.raisedByDriver(sql);
      }
    }
    return false;
  }

  /** The database's own words, without the statement some drivers append. */
  private static String firstLine(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getMessage() != null) {
        String message = sql.getMessage().lines().findFirst().orElse("").trim();
        return message.replaceFirst("^ERROR: ", "").replaceFirst("; SQL statement:$", "");
      }
    }
    return e.getClass().getSimpleName();
  }

  /** A unique or primary-key violation: someone else holds the key. */
  public boolean isDuplicateKey(Throwable e) {
    String state = sqlState(e);
    return state != null && (state.equals("23505") || states.duplicateKey(state, vendorCode(e)));
  }

  /** A foreign-key violation (23503): the table row the entity refers to is gone. */
  public boolean isMissingParent(Throwable e) {
    String state = sqlState(e);
    return state != null && (state.equals("23503") || states.missingParent(state, vendorCode(e)));
  }

  /**
   * Serialization failure (40001), or the database's deadlock or lock timeout: the transaction may
   * run again.
   */
  public boolean isTransient(Throwable e) {
    String state = sqlState(e);
    return state != null && (state.equals("40001") || states.retryable(state, vendorCode(e)));
  }

  /** A statement cancelled for running past its time limit (57014). */
  public boolean isCancelled(Throwable e) {
    return "57014".equals(sqlState(e));
  }

  /** The driver's own error code of the first SQLException in the chain; 0 when there is none. */
  private static int vendorCode(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return sql.getErrorCode();
      }
    }
    return 0;
  }

  static String sqlState(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        return sql.getSQLState();
      }
      if (t instanceof DataAccessException dae
          && dae.sqlState() != null
          && !"99999".equals(dae.sqlState())) {
        return dae.sqlState();
      }
    }
    return null;
  }
}
