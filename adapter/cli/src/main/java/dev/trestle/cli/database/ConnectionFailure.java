package dev.trestle.cli.database;

import dev.trestle.cli.ExitCode;
import dev.trestle.cli.config.DatabaseSettings;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/**
 * What a failed connection attempt means for the operator: wait and retry, or stop and fix
 * something.
 */
enum ConnectionFailure {
  UNREACHABLE(true, ExitCode.DATABASE),
  STARTING_UP(true, ExitCode.DATABASE),
  CREDENTIALS(false, ExitCode.DATABASE),
  NO_SUCH_DATABASE(false, ExitCode.DATABASE),
  FILE_LOCKED(false, ExitCode.DATABASE),
  NO_DRIVER(false, ExitCode.USAGE),
  BAD_URL(false, ExitCode.USAGE),
  OTHER(false, ExitCode.DATABASE);

  private static final int H2_DATABASE_ALREADY_OPEN = 90020;
  private static final int H2_UNSUPPORTED_SETTING = 90113;
  private static final int H2_URL_FORMAT_ERROR = 90046;
  private static final int H2_DATABASE_NOT_FOUND = 90146;

  private final boolean transientFailure;
  private final int exitCode;

  ConnectionFailure(boolean transientFailure, int exitCode) {
    this.transientFailure = transientFailure;
    this.exitCode = exitCode;
  }

  boolean transientFailure() {
    return transientFailure;
  }

  int exitCode() {
    return exitCode;
  }

  static ConnectionFailure classify(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (message.startsWith("No suitable driver")) {
      return NO_DRIVER;
    }
    if (state.startsWith("28")) {
      return CREDENTIALS;
    }
    if (state.equals("3D000") || e.getErrorCode() == H2_DATABASE_NOT_FOUND) {
      return NO_SUCH_DATABASE;
    }
    if (state.equals("57P03")) {
      return STARTING_UP;
    }
    if (e.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
      return FILE_LOCKED;
    }
    if (e.getErrorCode() == H2_UNSUPPORTED_SETTING || e.getErrorCode() == H2_URL_FORMAT_ERROR) {
      return BAD_URL;
    }
    if (state.startsWith("08") || hasNetworkCause(e)) {
      return UNREACHABLE;
    }
    return OTHER;
  }

  String describe(DatabaseSettings settings, SQLException e) {
    String url = settings.redactedUrl();
    String cause = rootMessage(e);
    return switch (this) {
      case UNREACHABLE, STARTING_UP ->
          "Cannot reach the database at "
              + url
              + ": "
              + cause
              + "."
              + (settings.isPostgresql() ? " Is PostgreSQL running and listening there?" : "");
      case CREDENTIALS ->
          "The database refused the credentials: "
              + cause
              + ". Check --db-user and --db-password (or TRESTLE_DB_USER / TRESTLE_DB_PASSWORD).";
      case NO_SUCH_DATABASE ->
          "The database does not exist: "
              + cause
              + (settings.isPostgresql() ? ". Create it first, e.g. createdb trestle." : ".");
      case FILE_LOCKED ->
          "The H2 database "
              + url
              + " is in use by another process (another trestle?). "
              + "Stop it, or point --db at another file.";
      case NO_DRIVER ->
          "No JDBC driver accepts "
              + url
              + ". Trestle supports jdbc:postgresql: and jdbc:h2: URLs.";
      case BAD_URL -> "The JDBC URL " + url + " is not valid: " + cause + ".";
      case OTHER -> "Cannot connect to the database at " + url + ": " + cause + ".";
    };
  }

  /** The innermost message, on one line and without anything that looks like a password. */
  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    // H2 appends "[90020-232]" and sometimes a second line with the SQL
    message = message.lines().findFirst().orElse("").replaceAll("\\s*\\[\\d+-\\d+]$", "").strip();
    if (message.endsWith(".")) {
      message = message.substring(0, message.length() - 1);
    }
    return DatabaseSettings.redact(message);
  }

  private static boolean hasNetworkCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof UnknownHostException
          || t instanceof NoRouteToHostException
          || t instanceof SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }
}
