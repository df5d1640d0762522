package dev.trestle.store.internal;

import java.sql.SQLException;
import org.jooq.exception.DataAccessException;

/** Reads what a database error means from its SQLState, in one place for both databases. */
final class SqlErrors {
  private SqlErrors() {}

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
