package dev.trestle.cli;

import dev.trestle.ChangeFeed;
import dev.trestle.ChangePage;
import dev.trestle.TableChange;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "feed",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Enable, read, sweep or disable a table's change feed (a Trestle extension: every committed",
      "insert, update and delete in order, resumable from a position token). A read prints one",
      "line per change (position, kind, PartitionKey, RowKey, ETag) and the next token on stderr."
    })
final class FeedCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;
  @Mixin IndexCommand.Target target;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Action action;

  static final class Action {
    @Option(names = "--enable", order = 14, description = "Start recording the table's changes.")
    boolean enable;

    @Option(names = "--read", order = 15, description = "Print the changes after --from.")
    boolean read;

    @Option(
        names = "--sweep",
        order = 16,
        description = "Remove up to --max changes older than the feed's retention.")
    boolean sweep;

    @Option(names = "--disable", order = 17, description = "Stop recording; delete the changes.")
    boolean disable;
  }

  @Option(
      names = "--with-entities",
      order = 18,
      description = "With --enable: record each written entity too.")
  boolean withEntities;

  @Option(
      names = "--retention",
      paramLabel = "DURATION",
      order = 19,
      description = "With --enable: how long changes are kept, e.g. P7D (the default) or PT12H.")
  Duration retention = ChangeFeed.DEFAULT_RETENTION;

  @Option(
      names = "--from",
      paramLabel = "TOKEN",
      order = 20,
      description = "With --read: the token to read after (default: the oldest change kept).")
  String from;

  @Option(
      names = "--wait",
      paramLabel = "SECONDS",
      order = 21,
      description = "With --read: wait up to this long for a first change (default 0).")
  int waitSeconds;

  @Option(
      names = "--max",
      paramLabel = "N",
      order = 22,
      description = "With --read or --sweep: at most this many changes (default 1000).")
  int max = ChangeFeed.MAX_PAGE;

  @Override
  public Integer call() {
    Database.Access access = action.read ? Database.Access.READ : Database.Access.READ_WRITE;
    try (Database db = target.open(trestle, access)) {
      ChangeFeed feed = db.tables().tableClient(target.table).extensions().changeFeed();
      if (action.enable) {
        trestle.out().println(feed.enable(withEntities, retention));
      } else if (action.disable) {
        feed.disable();
        trestle.err().println("Disabled the change feed of " + target.table + ".");
      } else if (action.sweep) {
        trestle.out().println(feed.sweep(max));
      } else {
        ChangePage page = feed.read(from, max, Duration.ofSeconds(waitSeconds));
        for (TableChange change : page.changes()) {
          trestle
              .out()
              .println(
                  String.join(
                      "\t",
                      change.position(),
                      change.kind().name().toLowerCase(Locale.ROOT),
                      change.partitionKey(),
                      change.rowKey(),
                      change.etag() == null ? "" : change.etag()));
        }
        trestle.err().println("next " + page.next());
      }
      return ExitCode.OK;
    }
  }
}
