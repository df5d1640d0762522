package dev.trestle.cli;

import dev.trestle.cli.transfer.Source;
import dev.trestle.cli.transfer.Verifier;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "verify",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Compare tables in two places, named with copy's flags (--db, --from-endpoint or --from-dir;",
      "--to-db, --to-endpoint or --to-dir): counts per table and per partition, a SHA-256 over the",
      "typed values, and the differing keys. Exit 0 when equal, 9 when not."
    })
final class VerifyCommand extends CopyCommand {
  @Option(
      names = "--timestamps",
      order = 60,
      description = "Compare Timestamps too (both sides must keep them: not an endpoint target).")
  boolean timestamps;

  @Override
  public Integer call() {
    return withEnds(
        Database.Access.READ,
        (fromEnd, toEnd, names) -> verify(trestle, fromEnd, toEnd, names, timestamps));
  }

  /** Compares each table, prints what differs, and answers the exit code. */
  static int verify(
      Trestle trestle, Source source, Source target, List<String> names, boolean timestamps) {
    PrintWriter out = trestle.out();
    Verifier verifier = new Verifier(timestamps);
    boolean equal = true;
    for (String name : names) {
      String targetName = target.find(name).orElse(null);
      if (targetName == null) {
        out.println(name + ": missing in the target");
        equal = false;
        continue;
      }
      Verifier.Result result = verifier.compare(name, source, wrap(target, name, targetName));
      out.printf(
          "%s: %s; source %d entities (sha256 %s), target %d entities (sha256 %s)%n",
          name,
          result.equal() ? "equal" : result.differences() + " difference(s)",
          result.sourceCount(),
          result.sourceChecksum().substring(0, 16),
          result.targetCount(),
          result.targetChecksum().substring(0, 16));
      for (Map.Entry<String, long[]> partition : result.partitionCounts().entrySet()) {
        out.printf(
            "  partition '%s': %d missing in target, %d only in target%n",
            partition.getKey(), partition.getValue()[0], partition.getValue()[1]);
      }
      for (String line : result.listed()) {
        out.println("  " + line);
      }
      equal &= result.equal();
    }
    out.flush();
    if (!equal) {
      trestle.err().println("trestle: the source and the target differ.");
      return ExitCode.DIFFERENT;
    }
    return ExitCode.OK;
  }

  /** The target's table under its own casing. */
  private static Source wrap(Source target, String name, String targetName) {
    if (name.equals(targetName)) {
      return target;
    }
    return new Source() {
      @Override
      public List<String> tableNames() {
        return target.tableNames();
      }

      @Override
      public java.util.Optional<String> find(String table) {
        return target.find(table);
      }

      @Override
      public void read(
          String table,
          dev.trestle.cli.transfer.Position from,
          java.util.function.Predicate<dev.trestle.TableEntity> each) {
        target.read(targetName, from, each);
      }

      @Override
      public String describe() {
        return target.describe();
      }
    };
  }
}
