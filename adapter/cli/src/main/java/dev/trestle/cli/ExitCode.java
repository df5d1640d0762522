package dev.trestle.cli;

/** The process exit codes of {@code trestle}, stable for scripts. */
public final class ExitCode {
  public static final int OK = 0;

  /** An unexpected failure; the log at debug level has the details. */
  public static final int SOFTWARE = 1;

  /** A bad flag, setting, config file or JDBC URL. */
  public static final int USAGE = 2;

  /**
   * The database could not be reached, refused the credentials, or the schema could not be applied.
   */
  public static final int DATABASE = 3;

  /** The port is in use or the address cannot be bound. */
  public static final int PORT = 4;

  /**
   * Import or export data that cannot be read or written (bad NDJSON line, missing table, I/O
   * error).
   */
  public static final int DATA = 5;

  private ExitCode() {}
}
