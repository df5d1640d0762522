package dev.trestle.store.internal.postgresql;

import dev.trestle.store.internal.database.SqlStates;
import java.lang.reflect.Method;
import java.sql.SQLException;
import java.util.Set;

/**
 * PostgreSQL's own states, and which failures pgjdbc raised itself: those carry no message from the
 * server. Read by reflection, since the driver is an optional dependency of core.
 */
final class PostgresSqlStates extends SqlStates.Listed {
  PostgresSqlStates() {
    super(
        Set.of(
            "57P01", "57P02", "57P03", // admin shutdown, crash shutdown, cannot connect now
            "57P05", // idle session timeout: the server closed the connection
            "57014", // a statement cancelled (a statement_timeout of the database's)
            "25006", // read-only: a standby after a failover, default_transaction_read_only
            "53000", "53100", "53200", "53300", "53400"), // out of disk, memory, connections
        Set.of(), // 23503, the standard state
        Set.of("40P01"), // deadlock detected
        Set.of()); // class 22, the standard states
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
