package dev.trestle.store.internal.postgresql;

import dev.trestle.store.internal.database.SqlStates;
import java.lang.reflect.Method;
import java.sql.SQLException;

/**
 * PostgreSQL's states, and which failures pgjdbc raised itself: those carry no message from the
 * server. Read by reflection, since the driver is an optional dependency of core.
 */
final class PostgresSqlStates implements SqlStates {
  private final SqlStates states;

  PostgresSqlStates(SqlStates states) {
    this.states = states;
  }

  @Override
  public boolean unavailable(String state, int vendorCode) {
    return states.unavailable(state, vendorCode);
  }

  @Override
  public boolean duplicateKey(String state, int vendorCode) {
    return states.duplicateKey(state, vendorCode);
  }

  @Override
  public boolean missingParent(String state, int vendorCode) {
    return states.missingParent(state, vendorCode);
  }

  @Override
  public boolean retryable(String state, int vendorCode) {
    return states.retryable(state, vendorCode);
  }

  @Override
  public boolean malformedValue(String state, int vendorCode) {
    return states.malformedValue(state, vendorCode);
  }

  @Override
  public boolean raisedByDriver(SQLException failure) {
    if (!failure.getClass().getName().equals("org.postgresql.util.PSQLException")) {
      return false;
    }
    try {
      Method serverMessage = failure.getClass().getMethod("getServerErrorMessage");
      return serverMessage.invoke(failure) == null;
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }
}
