package dev.trestle.cli;

import dev.trestle.EntityQuery;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "count",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Count a table's entities, or those matching a filter, in the database (a Trestle extension:",
      "one SQL count over the key index, or a declared property index where the filter has one)."
    })
final class CountCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;
  @Mixin IndexCommand.Target target;

  @Option(
      names = "--filter",
      paramLabel = "ODATA",
      order = 14,
      description = "Count only the entities matching this $filter, e.g. \"PartitionKey eq 'a'\".")
  String filter;

  @Override
  public Integer call() {
    try (Database db = target.open(trestle, Database.Access.READ)) {
      long started = System.nanoTime();
      long count =
          db.tables().tableClient(target.table).extensions().count(EntityQuery.filter(filter));
      trestle.out().println(count);
      trestle.err().println("(took " + (System.nanoTime() - started) / 1_000_000 + " ms)");
      return ExitCode.OK;
    }
  }
}
