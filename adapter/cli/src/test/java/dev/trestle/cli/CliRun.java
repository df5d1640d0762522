package dev.trestle.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** Runs {@code trestle} in-process and captures its exit code and output. */
record CliRun(int exitCode, String out, String err) {

  static CliRun run(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Trestle.execute(args, environment, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CliRun(code, out.toString(), err.toString());
  }

  static CliRun run(String... args) {
    return run(Map.of(), args);
  }

  /** The error output as its lines, to check that a failure is reported on exactly one. */
  String[] errLines() {
    return err.strip().split("\\R");
  }
}
