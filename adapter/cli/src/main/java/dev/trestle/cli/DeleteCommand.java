package dev.trestle.cli;

import dev.trestle.EntityQuery;
import dev.trestle.TableExtensions;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "delete",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Delete a table's entities in the database without reading them (a Trestle extension): a whole",
      "partition or the whole table in one transaction, or the matches of a filter in one transaction",
      "per partition, with progress. The table, its access policies and indexes stay."
    })
final class DeleteCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;
  @Mixin IndexCommand.Target target;

  @ArgGroup(exclusive = true, multiplicity = "1")
  What what;

  static final class What {
    @Option(
        names = "--partition",
        paramLabel = "KEY",
        order = 14,
        description = "Delete every entity of this partition.")
    String partition;

    @Option(
        names = "--filter",
        paramLabel = "ODATA",
        order = 15,
        description = "Delete the entities matching this $filter, a partition at a time.")
    String filter;

    @Option(names = "--all", order = 16, description = "Delete every entity of the table.")
    boolean all;
  }

  @Override
  public Integer call() {
    try (Database db = target.open(trestle, Database.Access.READ_WRITE)) {
      long started = System.nanoTime();
      TableExtensions table = db.tables().tableClient(target.table).extensions();
      long deleted;
      if (what.partition != null) {
        deleted = table.deletePartition(what.partition);
      } else if (what.filter != null) {
        deleted = table.deleteWhere(EntityQuery.filter(what.filter), new Progress());
      } else {
        deleted = table.truncate();
      }
      trestle
          .out()
          .println(
              "Deleted "
                  + deleted
                  + " entities of "
                  + target.table
                  + " (took "
                  + (System.nanoTime() - started) / 1_000_000
                  + " ms)");
      return ExitCode.OK;
    }
  }

  /** Tells the operator how far a long delete is, at most once a second. */
  private final class Progress implements TableExtensions.DeleteProgress {
    private long lastTold = System.nanoTime();

    @Override
    public void partitionDeleted(String partitionKey, long deleted, long total) {
      long now = System.nanoTime();
      if (now - lastTold >= 1_000_000_000L) {
        lastTold = now;
        trestle
            .err()
            .println("deleted " + total + " so far, up to partition '" + partitionKey + "'");
      }
    }
  }
}
