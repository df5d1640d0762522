package dev.trestle.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A real PgBouncer (Debian's {@code pgbouncer} package) in transaction pooling mode in front of the
 * test PostgreSQL, with few server connections so that clients really share them. Skips the calling
 * test when PgBouncer is not installed, except with {@code CI=true}, where it fails.
 */
public final class PgBouncer implements AutoCloseable {
  private static final Path BINARY = Path.of("/usr/sbin/pgbouncer");

  private final Process process;
  private final Path directory;
  private final int port;

  private PgBouncer(Process process, Path directory, int port) {
    this.process = process;
    this.directory = directory;
    this.port = port;
  }

  /**
   * Starts one in front of the tests' PostgreSQL server, and makes {@code database} there (migrated
   * by the caller); {@link #jdbcUrl()} reaches that database through PgBouncer, {@link
   * #directUrl()} without it.
   */
  public static PgBouncer inFrontOfTestPostgres(String database, int serverConnections)
      throws IOException, InterruptedException {
    PostgresServer.Endpoint endpoint = PostgresServer.dedicatedDatabase(database);
    java.util.regex.Matcher address =
        java.util.regex.Pattern.compile("jdbc:postgresql://([^:/]+)(?::(\\d+))?/")
            .matcher(endpoint.url());
    if (!address.find()) {
      throw new IllegalStateException("Cannot read host and port from " + endpoint.url());
    }
    int postgresPort = address.group(2) == null ? 5432 : Integer.parseInt(address.group(2));
    PgBouncer bouncer = start(address.group(1), postgresPort, serverConnections);
    bouncer.direct = endpoint;
    bouncer.database = database;
    return bouncer;
  }

  private PostgresServer.Endpoint direct;
  private String database;

  /** The dedicated database, through PgBouncer, with the test server's credentials. */
  public String jdbcUrl() {
    String query =
        direct.url().contains("?") ? direct.url().substring(direct.url().indexOf('?')) : "";
    return jdbcUrl(database) + query;
  }

  /** The dedicated database, directly. */
  public String directUrl() {
    return direct.url();
  }

  public String user() {
    return direct.user();
  }

  public String password() {
    return direct.password();
  }

  /**
   * Starts one in front of PostgreSQL at {@code host:port}, serving every database to every user
   * without a password.
   */
  public static PgBouncer start(String host, int postgresPort, int serverConnections)
      throws IOException, InterruptedException {
    if (!Files.isExecutable(BINARY)) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new IllegalStateException(
            "CI=true but PgBouncer is not installed at " + BINARY + " (apt-get install pgbouncer)");
      }
      Assumptions.abort("PgBouncer is not installed (apt-get install pgbouncer)");
    }
    Path directory =
        Files.createTempDirectory(
            "pgbouncer",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
    int port = freePort();
    Path users = directory.resolve("users.txt");
    Files.writeString(users, "\"root\" \"\"\n\"postgres\" \"\"\n");
    Path config = directory.resolve("pgbouncer.ini");
    Files.writeString(
        config,
        String.join(
            "\n",
            "[databases]",
            "* = host=" + host + " port=" + postgresPort,
            "[pgbouncer]",
            "listen_addr = 127.0.0.1",
            "listen_port = " + port,
            "auth_type = trust",
            "auth_file = " + users,
            "pool_mode = transaction",
            "default_pool_size = " + serverConnections,
            "max_client_conn = 500",
            // pgjdbc sends extra_float_digits at start-up, which PgBouncer refuses unless told to
            // ignore it
            "ignore_startup_parameters = extra_float_digits",
            "unix_socket_dir =",
            "logfile = " + directory.resolve("pgbouncer.log"),
            ""));
    List<String> command = new ArrayList<>(List.of(BINARY.toString()));
    if ("root".equals(System.getProperty("user.name"))) {
      command.addAll(List.of("-u", "postgres")); // PgBouncer refuses to run as root
    }
    command.add(config.toString());
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("stdout.log").toFile())
            .start();
    PgBouncer bouncer = new PgBouncer(process, directory, port);
    bouncer.awaitListening(Duration.ofSeconds(10));
    return bouncer;
  }

  public int port() {
    return port;
  }

  /** A JDBC URL for {@code database} through this PgBouncer. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  private void awaitListening(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "PgBouncer exited: " + Files.readString(directory.resolve("stdout.log")));
      }
      try (Socket socket = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new IllegalStateException(
        "PgBouncer did not listen on port " + port + " within " + timeout);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
