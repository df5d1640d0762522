package dev.trestle.cli.transfer;

import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** Where a transfer reads: a database, a Table endpoint, an NDJSON file or a folder of them. */
public interface Source extends AutoCloseable {

  /** Every table, names as created. */
  List<String> tableNames();

  /** The table's name as created, matched case-insensitively, if it exists. */
  Optional<String> find(String table);

  /**
   * Hands the table's entities after {@code from} to {@code each}, in key order where the source
   * has one, until {@code each} answers false.
   */
  void read(String table, Position from, Predicate<TableEntity> each);

  /**
   * The form of the stored entities {@link #readRaw} hands out, or null when it hands none: a sink
   * {@link Sink#storedFormWritten() writing} the same form takes them undecoded.
   */
  default String storedFormRead() {
    return null;
  }

  /** As {@link #read}, each entity as stored; only when {@link #storedFormRead()} is not null. */
  default void readRaw(String table, Position from, Predicate<RawEntity> each) {
    throw new UnsupportedOperationException(describe() + " hands out no stored entities");
  }

  /** The entities the table holds, when known cheaply; -1 otherwise. */
  default long estimate(String table) {
    return -1;
  }

  /** For messages: what this is. */
  String describe();

  @Override
  default void close() {}
}
