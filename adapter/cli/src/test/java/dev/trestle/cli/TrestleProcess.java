package dev.trestle.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code trestle} as its own process, with the production logging configuration, to see exactly
 * what a user sees: exit code, stdout and stderr.
 */
final class TrestleProcess {
  private TrestleProcess() {}

  record Outcome(int exitCode, String out, String err) {}

  static ProcessBuilder builder(Path workDir, Map<String, String> environment, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlogback.configurationFile=logback.xml",
                "-cp",
                System.getProperty("java.class.path"),
                Trestle.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("TRESTLE_"));
    builder.environment().putAll(environment);
    return builder;
  }

  static Outcome run(Path workDir, String... args) throws IOException, InterruptedException {
    Path out = workDir.resolve("stdout.txt");
    Path err = workDir.resolve("stderr.txt");
    Process process =
        builder(workDir, Map.of(), args)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("trestle " + String.join(" ", args) + " did not finish in 60 s");
    }
    return new Outcome(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
