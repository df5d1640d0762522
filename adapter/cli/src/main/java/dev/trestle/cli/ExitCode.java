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
   * Data that cannot be read or written (bad NDJSON line, refused entity, I/O error, a full disk:
   * free space, then --resume); a missing table is {@link #TABLE_NOT_FOUND}.
   */
  public static final int DATA = 5;

  /** The table named does not exist (in the source, or in the database exported). */
  public static final int TABLE_NOT_FOUND = 6;

  /** A Table endpoint refused the account key or SAS token (check --from-key, --to-key, ...). */
  public static final int AUTHENTICATION = 7;

  /**
   * A transfer was stopped by SIGTERM or SIGINT after committing what was in flight and writing its
   * checkpoint: the same command with --resume continues it.
   */
  public static final int STOPPED = 8;

  /** verify found the source and the target different (the differences are listed). */
  public static final int DIFFERENT = 9;

  private ExitCode() {}
}
