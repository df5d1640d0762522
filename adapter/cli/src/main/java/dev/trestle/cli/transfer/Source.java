package dev.trestle.cli.transfer;

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

  /** The entities the table holds, when known cheaply; -1 otherwise. */
  default long estimate(String table) {
    return -1;
  }

  /** For messages: what this is. */
  String describe();

  @Override
  default void close() {}
}
