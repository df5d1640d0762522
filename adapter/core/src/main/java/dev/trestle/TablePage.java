package dev.trestle;

import java.util.List;
import java.util.Optional;

/** One page of tables; {@code nextTableName} is present when more may remain. */
public record TablePage(List<TableInfo> tables, Optional<String> nextTableName) {
  /** Copies the list. */
  public TablePage {
    tables = List.copyOf(tables);
  }
}
