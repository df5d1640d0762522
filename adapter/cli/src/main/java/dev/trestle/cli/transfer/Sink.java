package dev.trestle.cli.transfer;

import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import java.util.List;

/** Where a transfer writes: a database, a Table endpoint, an NDJSON file or a folder of them. */
public interface Sink extends AutoCloseable {

  /** A writer into the table (created when missing), continuing after {@code from}. */
  Table open(String table, Position from);

  /** Called once every table is written (a folder writes its manifest). */
  default void finished(List<String> tables) {}

  /** Whether entities keep their Timestamp here (an endpoint always sets its own). */
  boolean keepsTimestamps();

  /**
   * The form of stored entities its tables {@link Table#addRaw take} undecoded, or null (see {@link
   * Source#storedFormRead()}).
   */
  default String storedFormWritten() {
    return null;
  }

  /** For messages: what this is. */
  String describe();

  @Override
  default void close() {}

  /** How much of a table is committed: the entities, in the order added, and the last of them. */
  record Committed(long entities, TableEntity last) {
    static final Committed NONE = new Committed(0, null);
  }

  /** One table being written. */
  interface Table extends AutoCloseable {
    /** Adds an entity; it may be committed later. */
    void add(TableEntity entity);

    /** Adds an entity as stored; only when the sink {@link #storedFormWritten() takes} its form. */
    default void addRaw(RawEntity entity) {
      throw new UnsupportedOperationException("This table takes no stored entities");
    }

    /**
     * Every entity of the table was added (the transfer was not stopped within it). A sink that
     * writes a table whole commits it at {@link #close()} only after this.
     */
    default void allAdded() {}

    /** What is committed so far. */
    Committed committed();

    /** The sink's offset at the last commit (bytes of a file), for a resume. */
    default long offset() {
      return 0;
    }

    /** Commits what is pending. */
    @Override
    void close();
  }
}
