package dev.trestle.cli.crash;

import dev.trestle.cli.Trestle;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code trestle serve} as a process of its own on a given database, started, killed and started
 * again.
 */
final class ServerProcess {
  private static final Pattern ENDPOINT = Pattern.compile("serves the Table API at (http://\\S+)");

  private final Path workDir;
  private final String jdbcUrl;
  private final Map<String, String> settings = new LinkedHashMap<>();
  private Process process;
  private String endpoint;
  private int starts;

  /**
   * The JDBC URL, credentials included, of a PostgreSQL database of the tests' own named {@code
   * database}, for a server process that reads only the URL.
   */
  static String postgresUrl(String database) {
    dev.trestle.testing.TestDatabase.Address address =
        dev.trestle.testing.TestDatabase.dedicatedPostgresDatabase(database);
    String url = address.url();
    if (address.user() != null) {
      url +=
          (url.contains("?") ? "&" : "?")
              + "user="
              + address.user()
              + (address.password() == null ? "" : "&password=" + address.password());
    }
    return url;
  }

  /** A server in {@code workDir} on {@code jdbcUrl}, or on the default database when null. */
  ServerProcess(Path workDir, String jdbcUrl) {
    this.workDir = workDir;
    this.jdbcUrl = jdbcUrl;
  }

  /**
   * A {@code TRESTLE_*} setting every start passes, e.g. relaxed transactions or sweep intervals.
   */
  ServerProcess with(String variable, String value) {
    settings.put(variable, value);
    return this;
  }

  /** Starts the server and waits for its banner; returns the Table endpoint. */
  String start() throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=logback.xml",
                "-cp",
                System.getProperty("java.class.path"),
                Trestle.class.getName(),
                "serve"));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectError(workDir.resolve("stderr-" + (++starts) + ".txt").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("TRESTLE_"));
    builder.environment().put("TRESTLE_PORT", "0");
    if (jdbcUrl != null) {
      builder.environment().put("TRESTLE_DB", jdbcUrl);
    }
    builder.environment().put("TRESTLE_POOL_SIZE", "8");
    builder.environment().putAll(settings);
    process = builder.start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder banner = new StringBuilder();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      banner.append(line).append('\n');
      Matcher matcher = ENDPOINT.matcher(line);
      if (matcher.find()) {
        endpoint = matcher.group(1);
      }
      if (line.startsWith("Press Ctrl+C")) {
        Thread.ofPlatform().daemon().start(() -> out.lines().forEach(ignored -> {}));
        return endpoint;
      }
    }
    throw new IllegalStateException("The server did not start:\n" + banner + log());
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  void kill() throws InterruptedException {
    if (process == null) {
      return; // never started
    }
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /**
   * Copies the H2 files of the work directory, as the kill left them, to {@code to}: what a
   * half-applied transaction can be examined in before the next start recovers the file.
   */
  void copyDatabaseFiles(Path to) throws IOException {
    try (var files = Files.walk(workDir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".mv.db")).toList()) {
        Path copy = to.resolve(workDir.relativize(file).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** SIGTERM, then waits for the graceful stop; returns the exit code. */
  int terminate() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("The server did not stop within 60 s of SIGTERM");
    }
    return process.exitValue();
  }

  /** The log of the latest start. */
  String log() throws IOException {
    Path file = workDir.resolve("stderr-" + starts + ".txt");
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
