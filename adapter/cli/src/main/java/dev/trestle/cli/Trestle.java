package dev.trestle.cli;

import dev.trestle.TableException;
import dev.trestle.cli.config.ConfigurationException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code trestle} command. Errors end as one line on stderr and an {@link ExitCode}; stack
 * traces go to the log at debug level only.
 */
@Command(
    name = "trestle",
    mixinStandardHelpOptions = true,
    versionProvider = VersionInfo.class,
    description = "Azure Table Storage semantics on H2 or PostgreSQL.",
    subcommands = {
      ServeCommand.class,
      MigrateCommand.class,
      ExportCommand.class,
      ImportCommand.class,
      CopyCommand.class,
      VerifyCommand.class,
      IndexCommand.class,
      CountCommand.class,
      DeleteCommand.class,
      TtlCommand.class,
      FeedCommand.class,
      VersionCommand.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "",
      "Exit codes: 0 ok, 1 unexpected error, 2 bad flag or setting, 3 database or endpoint"
          + " unreachable or failing, 4 port in use, 5 data that cannot be read or written, 6 table"
          + " not found, 7 key or SAS refused by an endpoint, 8 transfer stopped (continue with"
          + " --resume), 9 verify found differences."
    })
public final class Trestle implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(Trestle.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;
  private final PrintWriter out;
  private final PrintWriter err;

  Trestle(Map<String, String> environment, PrintWriter out, PrintWriter err) {
    this.environment = Map.copyOf(environment);
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    // serve returns only once a shutdown signal has closed the server
    System.exit(execute(args, System.getenv(), out, err));
  }

  /** Runs one command line and returns its exit code; never calls {@link System#exit}. */
  public static int execute(
      String[] args, Map<String, String> environment, PrintWriter out, PrintWriter err) {
    CommandLine commandLine = commandLine(environment, out, err);
    return commandLine.execute(args);
  }

  static CommandLine commandLine(
      Map<String, String> environment, PrintWriter out, PrintWriter err) {
    CommandLine commandLine = new CommandLine(new Trestle(environment, out, err));
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setParameterExceptionHandler(
        (e, args) -> {
          String command = e.getCommandLine().getCommandSpec().qualifiedName();
          err.println("trestle: " + e.getMessage() + " (see '" + command + " --help')");
          return ExitCode.USAGE;
        });
    commandLine.setExecutionExceptionHandler((e, line, parseResult) -> report(e, err));
    return commandLine;
  }

  /** Turns a failure into one line on stderr and its exit code. */
  static int report(Exception e, PrintWriter err) {
    int exitCode;
    String message;
    if (e instanceof CliException cli) {
      exitCode = cli.exitCode();
      message = cli.getMessage();
    } else if (e instanceof ConfigurationException) {
      exitCode = ExitCode.USAGE;
      message = e.getMessage();
    } else if (e instanceof TableException table) {
      exitCode = ExitCode.DATA;
      message = table.errorCode().code() + ": " + table.getMessage();
    } else {
      exitCode = ExitCode.SOFTWARE;
      message =
          "unexpected error: "
              + e
              + rootCause(e)
              + " (run with TRESTLE_LOG_LEVEL=debug for details)";
    }
    log.debug("Command failed", e);
    err.println("trestle: " + oneLine(message));
    err.flush();
    return exitCode;
  }

  /**
   * The innermost cause, which names what went wrong where a wrapper names only where ("Error while
   * running ConnectionCallable"); empty when there is none.
   */
  private static String rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == e ? "" : ", caused by " + root;
  }

  static String oneLine(String message) {
    return message == null ? "" : message.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(out);
    return ExitCode.OK;
  }

  Map<String, String> environment() {
    return environment;
  }

  PrintWriter out() {
    return out;
  }

  PrintWriter err() {
    return err;
  }
}
