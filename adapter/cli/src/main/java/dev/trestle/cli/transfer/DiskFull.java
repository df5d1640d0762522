package dev.trestle.cli.transfer;

import java.sql.SQLException;

/**
 * Recognises a full disk among a failure's causes, whatever wrapped it (jOOQ, H2's MVStore, a
 * sink's own message): a full disk is no fault of the data, and the answer is room and --resume.
 */
final class DiskFull {
  /** PostgreSQL's SQLSTATE disk_full (class 53, insufficient resources). */
  private static final String POSTGRESQL_DISK_FULL = "53100";

  private DiskFull() {}

  /** The cause that says the disk is full, or null when none does. */
  static Throwable cause(Throwable failure) {
    for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
      if (e instanceof SQLException sql && POSTGRESQL_DISK_FULL.equals(sql.getSQLState())) {
        return server(sql);
      }
      String message = e.getMessage();
      // the operating system's text for ENOSPC and EDQUOT, as the JDK reports them
      if (message != null
          && (message.contains("No space left on device")
              || message.contains("Disk quota exceeded"))) {
        return e;
      }
    }
    return null;
  }

  /**
   * The server's own error (naming the file it could not extend) rather than a batch's wrapper,
   * whose message holds the whole statement.
   */
  private static SQLException server(SQLException failure) {
    SQLException last = failure;
    for (SQLException next = failure.getNextException();
        next != null && next != last;
        next = next.getNextException()) {
      if (POSTGRESQL_DISK_FULL.equals(next.getSQLState())) {
        last = next;
      }
    }
    return last;
  }
}
