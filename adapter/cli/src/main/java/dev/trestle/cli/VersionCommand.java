package dev.trestle.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "version",
    mixinStandardHelpOptions = true,
    description = "Print Trestle's version and the Java runtime it runs on.")
final class VersionCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @Override
  public Integer call() {
    for (String line : new VersionInfo().getVersion()) {
      trestle.out().println(line);
    }
    return ExitCode.OK;
  }
}
