package dev.trestle.cli;

import dev.trestle.TableExtensions;
import dev.trestle.TimeToLive;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "ttl",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Show or set a table's time to live (a Trestle extension). Expired entities are absent to",
      "every read and write at once; a running server's sweeper removes them later. An entity's own",
      "TrestleExpires property (Edm.DateTime) wins over the table's default."
    })
final class TtlCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;
  @Mixin IndexCommand.Target target;

  @ArgGroup(exclusive = true)
  Change change;

  static final class Change {
    @Option(
        names = "--default",
        paramLabel = "SECONDS",
        order = 14,
        description = "Entities expire this many seconds after their last write.")
    Long seconds;

    @Option(
        names = "--entities-only",
        order = 15,
        description = "Only entities with a TrestleExpires property expire.")
    boolean entitiesOnly;

    @Option(names = "--off", order = 16, description = "No entity of the table expires.")
    boolean off;
  }

  @Override
  public Integer call() {
    try (Database db = target.open(trestle, Database.Access.READ_WRITE)) {
      TableExtensions table = db.tables().tableClient(target.table).extensions();
      if (change != null) {
        table.timeToLive(setting());
      }
      trestle.out().println(target.table + ": " + describe(table.timeToLive()));
      return ExitCode.OK;
    }
  }

  private TimeToLive setting() {
    if (change.off) {
      return TimeToLive.OFF;
    }
    if (change.entitiesOnly) {
      return TimeToLive.entitiesOnly();
    }
    if (change.seconds <= 0) {
      throw new CliException(ExitCode.USAGE, "--default must be a positive number of seconds");
    }
    return TimeToLive.of(Duration.ofSeconds(change.seconds));
  }

  static String describe(TimeToLive setting) {
    if (!setting.enabled()) {
      return "no time to live";
    }
    return setting.defaultTtl() == null
        ? "entities expire at their own TrestleExpires only"
        : "entities expire "
            + setting.defaultTtl().toSeconds()
            + " s after their last write, or at their own TrestleExpires";
  }
}
