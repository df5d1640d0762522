package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.cli.config.ServerSettings;
import dev.trestle.cli.config.Setting;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CommandLineTest {
  @TempDir Path dir;

  @Test
  void serveHelpListsEverySettingWithItsVariable() {
    CliRun run = CliRun.run("serve", "--help");
    assertThat(run.exitCode()).isZero();
    for (Setting setting : Setting.values()) {
      assertThat(run.out()).contains(setting.flag());
      assertThat(run.out()).contains(setting.environmentVariable());
    }
    assertThat(run.out()).contains("--config").contains("TRESTLE_CONFIG").contains("Precedence");
  }

  @Test
  void settingsComeFromFlagsThenEnvironmentThenConfigFile() throws IOException {
    Path file = dir.resolve("t.properties");
    Files.writeString(file, "port=3000\nhost=0.0.0.0\npool-size=3\ndb-wait=9\n");
    ServerSettings settings =
        parseServe(
            Map.of("TRESTLE_HOST", "127.0.0.2", "TRESTLE_POOL_SIZE", "4"),
            "serve",
            "--config",
            file.toString(),
            "--pool-size",
            "5",
            "--allow-anonymous",
            "--db",
            "jdbc:postgresql://db.example/trestle",
            "--account",
            "acct:QUJD");

    assertThat(settings.port()).isEqualTo(3000);
    assertThat(settings.host()).isEqualTo("127.0.0.2");
    assertThat(settings.database().poolSize()).isEqualTo(5);
    assertThat(settings.database().startupWait().toSeconds()).isEqualTo(9);
    assertThat(settings.database().jdbcUrl()).isEqualTo("jdbc:postgresql://db.example/trestle");
    assertThat(settings.allowAnonymous()).isTrue();
    assertThat(settings.accounts())
        .singleElement()
        .satisfies(a -> assertThat(a.name()).isEqualTo("acct"));
  }

  @Test
  void unknownFlagIsOneLineAndUsageExitCode() {
    CliRun run = CliRun.run("serve", "--prot", "1");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.err())
        .startsWith("trestle: Unknown options: '--prot'")
        .contains("trestle serve --help");
  }

  @Test
  void unknownCommandIsUsageError() {
    CliRun run = CliRun.run("serv");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errLines()).hasSize(1);
  }

  @Test
  void badJdbcUrlIsOneLineAndUsageExitCode() {
    CliRun run = CliRun.run("serve", "--db", "jdbc:mysql://localhost/x", "--port", "0");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.err()).contains("--db must be a jdbc:postgresql: or jdbc:h2: URL");
  }

  @Test
  void badPortValueIsOneLineAndUsageExitCode() {
    CliRun run = CliRun.run(Map.of("TRESTLE_PORT", "eighty"), "serve");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err().strip())
        .isEqualTo(
            "trestle: --port must be a whole number from 0 to 65535, but was 'eighty' (from TRESTLE_PORT).");
  }

  @Test
  void busyPortIsOneLineAndPortExitCodeBeforeTouchingTheDatabase() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CliRun run =
          CliRun.run(
              "serve",
              "--port",
              Integer.toString(taken.getLocalPort()),
              "--db",
              "jdbc:postgresql://127.0.0.1:1/never-reached");
      assertThat(run.exitCode()).isEqualTo(ExitCode.PORT);
      assertThat(run.errLines()).hasSize(1);
      assertThat(run.err())
          .contains("Port " + taken.getLocalPort() + " on 127.0.0.1 is already in use");
    }
  }

  @Test
  void unreachableDatabaseIsRetriedThenOneLineAndDatabaseExitCode() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      closedPort = socket.getLocalPort();
    }
    CliRun run =
        CliRun.run(
            "serve",
            "--port",
            "0",
            "--db-wait",
            "1",
            "--db",
            "jdbc:postgresql://127.0.0.1:" + closedPort + "/trestle?password=s3cret");
    assertThat(run.exitCode()).isEqualTo(ExitCode.DATABASE);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.err())
        .contains("Cannot reach the database at jdbc:postgresql://127.0.0.1:" + closedPort)
        .contains("Gave up after 1 s")
        .doesNotContain("s3cret");
  }

  @Test
  void unknownHostIsUsageError() {
    CliRun run = CliRun.run("serve", "--host", "no-such-host.invalid", "--port", "0");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errLines()).hasSize(1);
  }

  @Test
  void versionPrintsTheBuiltVersion() {
    CliRun run = CliRun.run("version");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("trestle 0.").contains("Java " + Runtime.version().feature());
    assertThat(CliRun.run("--version").out()).isEqualTo(run.out());
  }

  @Test
  void noCommandPrintsTheCommands() {
    CliRun run = CliRun.run();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("serve").contains("version");
  }

  private static ServerSettings parseServe(Map<String, String> environment, String... args) {
    CommandLine commandLine =
        Trestle.commandLine(
            environment, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    CommandLine.ParseResult result = commandLine.parseArgs(args);
    ServeCommand serve = (ServeCommand) result.subcommand().commandSpec().userObject();
    return serve.settings();
  }
}
