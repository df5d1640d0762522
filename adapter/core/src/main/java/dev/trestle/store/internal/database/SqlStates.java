package dev.trestle.store.internal.database;

import java.sql.SQLException;
import java.util.Set;

/**
 * How one database reports the failures the store must tell apart, beyond the standard SQLStates
 * {@link SqlErrors} reads itself; each test gets the failure's SQLState and the driver's vendor
 * code (0 when there is none), since some databases (MariaDB: 23000 for both) tell a duplicate key
 * from a missing parent only by the vendor code.
 */
public interface SqlStates {
  /**
   * The database is shutting down, restarting or refusing connections (beyond SQLState class 08).
   */
  default boolean unavailable(String state, int vendorCode) {
    return false;
  }

  /** A unique or primary-key violation (beyond 23505). */
  default boolean duplicateKey(String state, int vendorCode) {
    return false;
  }

  /** A foreign-key violation: the table row an entity refers to is gone (beyond 23503). */
  default boolean missingParent(String state, int vendorCode) {
    return false;
  }

  /**
   * The transaction lost a race (deadlock, lock timeout) and may simply be run again (beyond
   * 40001).
   */
  default boolean retryable(String state, int vendorCode) {
    return false;
  }

  /**
   * A stored value could not be converted as a filter asked (beyond SQLState class 22, data
   * exceptions): a row written by SQL in a form Trestle cannot read.
   */
  default boolean malformedValue(String state, int vendorCode) {
    return false;
  }

  /**
   * The driver raised this failure itself, without the database: a data exception of the driver's
   * (a parameter left without a value, say) is then a fault of Trestle's statement, not a stored
   * value that cannot be converted.
   */
  default boolean raisedByDriver(SQLException failure) {
    return false;
  }

  /**
   * A database whose own failures each have SQLStates of their own, the states of stored values
   * that cannot be converted included.
   */
  static SqlStates of(
      Set<String> unavailable,
      Set<String> missingParent,
      Set<String> retryable,
      Set<String> malformedValue) {
    return new Listed(unavailable, missingParent, retryable, malformedValue);
  }

  /**
   * A database's own states, listed by meaning; a database extends it for what a list cannot say.
   */
  class Listed implements SqlStates {
    private final Set<String> unavailable;
    private final Set<String> missingParent;
    private final Set<String> retryable;
    private final Set<String> malformedValue;

    protected Listed(
        Set<String> unavailable,
        Set<String> missingParent,
        Set<String> retryable,
        Set<String> malformedValue) {
      this.unavailable = unavailable;
      this.missingParent = missingParent;
      this.retryable = retryable;
      this.malformedValue = malformedValue;
    }

    @Override
    public boolean malformedValue(String state, int vendorCode) {
      return malformedValue.contains(state);
    }

    @Override
    public boolean unavailable(String state, int vendorCode) {
      return unavailable.contains(state);
    }

    @Override
    public boolean missingParent(String state, int vendorCode) {
      return missingParent.contains(state);
    }

    @Override
    public boolean retryable(String state, int vendorCode) {
      return retryable.contains(state);
    }
  }
}
