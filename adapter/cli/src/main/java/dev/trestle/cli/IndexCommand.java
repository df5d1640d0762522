package dev.trestle.cli;

import dev.trestle.EdmType;
import dev.trestle.IndexedProperty;
import dev.trestle.PropertyIndexInfo;
import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.config.IndexDeclaration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "index",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    subcommands = {
      IndexCommand.Create.class,
      IndexCommand.Drop.class,
      IndexCommand.ListIndexes.class
    },
    description = {
      "Declare, drop and list a table's property indexes.",
      "A filter comparing an indexed property (eq, ne, ranges, and/or, Timestamp ranges) reads through the",
      "index instead of every entity of its key range; the answers are the same with or without it. Each",
      "index costs every write to its table a little (see the README). On PostgreSQL an index is built",
      "without blocking writes; H2 keeps the declaration but builds none."
    })
final class IndexCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(trestle.out());
    return ExitCode.USAGE;
  }

  /** The options every index subcommand shares. */
  static final class Target {
    @Mixin DatabaseOptions database;

    @Option(
        names = "--table",
        required = true,
        paramLabel = "NAME",
        order = 10,
        description = "The table.")
    String table;

    @Option(
        names = "--account",
        paramLabel = "NAME",
        order = 13,
        description = "The storage account owning the table. Default: devstoreaccount1")
    String account = TableService.DEFAULT_ACCOUNT;

    Database open(Trestle trestle) {
      return open(trestle, Database.Access.READ_WRITE);
    }

    Database open(Trestle trestle, Database.Access access) {
      DatabaseSettings settings =
          DatabaseSettings.resolve(database.configuration(trestle.environment()), database.flags());
      return Database.open(settings, account, access);
    }
  }

  /** The properties and the types they are indexed for, in order. */
  static final class Property {
    @Option(
        names = "--property",
        required = true,
        paramLabel = "NAME",
        order = 11,
        description = {
          "The property, or Timestamp for the entities' write time. Repeat --property and --type",
          "for an index over several properties in order (say Category, then Price): a filter on",
          "the first, and on the next ones with 'and', reads only the entities matching all."
        })
    List<String> names;

    @Option(
        names = "--type",
        required = true,
        paramLabel = "TYPE",
        order = 12,
        description =
            "The type of the values filters compare it with: String, Int32, Int64, Double, Boolean,"
                + " DateTime, Guid or Binary (also as Edm.Int32, ...). Int32, Int64 and Double share"
                + " one index of numbers.")
    List<String> types;

    /** Each --property with its --type, in order. */
    List<IndexedProperty> properties() {
      if (names.size() != types.size()) {
        throw new CliException(
            ExitCode.USAGE,
            "Give one --type for each --property, in the same order ("
                + names.size()
                + " properties, "
                + types.size()
                + " types).");
      }
      List<IndexedProperty> properties = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        properties.add(new IndexedProperty(names.get(i), edmType(types.get(i))));
      }
      return properties;
    }

    private static EdmType edmType(String type) {
      return IndexDeclaration.typeNamed(type)
          .orElseThrow(
              () ->
                  new CliException(
                      ExitCode.USAGE,
                      "--type takes String, Int32, Int64, Double, Boolean, DateTime, Guid or Binary,"
                          + " not '"
                          + type
                          + "'."));
    }
  }

  @Command(
      name = "create",
      sortOptions = false,
      mixinStandardHelpOptions = true,
      description = {
        "Declare an index and build it; returns when it is ready. Declaring one that exists finishes",
        "an interrupted build and changes nothing else."
      })
  static final class Create implements Callable<Integer> {
    @ParentCommand IndexCommand index;
    @Mixin Target target;
    @Mixin Property property;

    @Override
    public Integer call() {
      List<IndexedProperty> properties = property.properties();
      try (Database db = target.open(index.trestle)) {
        long started = System.nanoTime();
        PropertyIndexInfo created = db.tables().createIndex(target.table, properties);
        index
            .trestle
            .out()
            .println(
                describe(created) + " (took " + (System.nanoTime() - started) / 1_000_000 + " ms)");
        return ExitCode.OK;
      }
    }
  }

  @Command(
      name = "drop",
      sortOptions = false,
      mixinStandardHelpOptions = true,
      description = {
        "Drop a declared index (without blocking writes on PostgreSQL): the one led by the property",
        "and type given, or, with several, the one over exactly those."
      })
  static final class Drop implements Callable<Integer> {
    @ParentCommand IndexCommand index;
    @Mixin Target target;
    @Mixin Property property;

    @Override
    public Integer call() {
      List<IndexedProperty> properties = property.properties();
      try (Database db = target.open(index.trestle)) {
        IndexedProperty first = properties.get(0);
        boolean dropped =
            properties.size() == 1
                ? db.tables().dropIndex(target.table, first.name(), first.type())
                : db.tables().dropIndex(target.table, properties);
        index
            .trestle
            .out()
            .println(
                (dropped ? "Dropped the index on " : "No index was declared on ")
                    + columns(properties, " (", ")")
                    + " of "
                    + target.table);
        return ExitCode.OK;
      }
    }
  }

  @Command(
      name = "list",
      sortOptions = false,
      mixinStandardHelpOptions = true,
      description = {
        "List a table's declared indexes: property and type (each, in order, for an index over",
        "several, joined by +), state and size."
      })
  static final class ListIndexes implements Callable<Integer> {
    @ParentCommand IndexCommand index;
    @Mixin Target target;

    @Override
    public Integer call() {
      try (Database db = target.open(index.trestle)) {
        List<PropertyIndexInfo> indexes = db.tables().listIndexes(target.table);
        if (indexes.isEmpty()) {
          index.trestle.out().println("No indexes declared on " + target.table);
        }
        for (PropertyIndexInfo info : indexes) {
          index.trestle.out().println(describe(info));
        }
        return ExitCode.OK;
      }
    }
  }

  static String describe(PropertyIndexInfo info) {
    return info.table()
        + " "
        + columns(info.properties(), " ", "")
        + " "
        + info.state().name().toLowerCase(Locale.ROOT).replace('_', ' ')
        + (info.sizeBytes().isPresent() ? " " + size(info.sizeBytes().getAsLong()) : "");
  }

  /**
   * The properties and types in order, joined by " + ": {@code Category Edm.String + Price
   * Edm.Int32}.
   */
  private static String columns(List<IndexedProperty> properties, String before, String after) {
    return String.join(
        " + ",
        properties.stream().map(p -> p.name() + before + p.type().odataName() + after).toList());
  }

  private static String size(long bytes) {
    if (bytes < 1024 * 1024) {
      return (bytes + 1023) / 1024 + " kB";
    }
    return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
  }
}
