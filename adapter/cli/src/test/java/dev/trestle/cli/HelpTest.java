package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command and subcommand answers {@code --help} with its usage (issue 15 found {@code trestle
 * version --help} answering "Unknown option"), and the top-level help lists every exit code.
 */
class HelpTest {

  /** Every command line's path below {@code trestle}, e.g. {@code [index, create]}. */
  private static List<List<String>> commands() {
    CommandLine root =
        Trestle.commandLine(
            Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    List<List<String>> paths = new ArrayList<>();
    collect(root, List.of(), paths);
    return paths;
  }

  private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              if (!name.equals(sub.getCommandName())) {
                return; // an alias: its command is listed under its own name
              }
              List<String> subPath = new ArrayList<>(path);
              subPath.add(name);
              paths.add(subPath);
              collect(sub, subPath, paths);
            });
  }

  @Test
  void everyCommandAnswersHelpWithItsUsage() {
    List<List<String>> commands = commands();
    assertThat(commands)
        .contains(List.of("copy"), List.of("import"), List.of("export"), List.of("verify"));
    for (List<String> command : commands) {
      if (command.equals(List.of("help"))) {
        continue; // picocli's own help command takes a command name, not --help
      }
      List<String> args = new ArrayList<>(command);
      args.add("--help");
      CliRun run = CliRun.run(args.toArray(String[]::new));
      assertThat(run.exitCode()).as("%s: %s", args, run.err()).isZero();
      assertThat(run.out()).as("%s", args).contains("Usage: trestle " + String.join(" ", command));
    }
  }

  @Test
  void theHelpListsEveryExitCode() throws IllegalAccessException {
    CliRun run = CliRun.run("--help");
    assertThat(run.exitCode()).isZero();
    String help = Trestle.oneLine(run.out());
    for (Field field : ExitCode.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
        assertThat(help).as(field.getName()).containsPattern("[ :]" + field.getInt(null) + " ");
      }
    }
  }
}
