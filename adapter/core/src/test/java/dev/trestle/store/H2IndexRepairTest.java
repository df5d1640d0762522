package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.h2.mvstore.DataUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H2 only: what a killed process can leave in an H2 file (h2database issue 2080) is H2's, and so is
 * the repair. The fixture blocked-key.mv.db.gz is a file saved right after a copy into it was
 * killed (see bench/RESULTS.md): table Typed of devstoreaccount1 holds 3,000 entities, and an
 * insert of p000042/r087 waits for a row version no transaction owns until H2's lock timeout.
 */
class H2IndexRepairTest {
  private static final String BLOCKED_PARTITION = "p000042";
  private static final String BLOCKED_ROW = "r087";

  @TempDir Path dir;

  @Test
  void aFileNotClosedCleanlyHasItsBlockedKeyFreedWhenTrestleOpensIt() throws IOException {
    Path base = fixture("blocked");
    makeUnclean(base);
    String url = "jdbc:h2:file:" + base;
    assertThat(H2IndexRepair.beforeOpening(JdbcUrls.durable(url)).needed()).isTrue();

    try (TableService service = TableService.builder().jdbcUrl(url).build()) {
      TableClient typed = service.tableClient("Typed");
      assertThat(typed.listEntities().stream().count()).isEqualTo(3_000);
      typed.insert(TableEntity.builder(BLOCKED_PARTITION, BLOCKED_ROW).build());
      assertThat(typed.get(BLOCKED_PARTITION, BLOCKED_ROW).rowKey()).isEqualTo(BLOCKED_ROW);
      assertThat(typed.listEntities().stream().count()).isEqualTo(3_001);
    }
    // closed by Trestle: clean, and not rebuilt again
    assertThat(H2IndexRepair.beforeOpening(url).needed()).isFalse();
  }

  /**
   * The fixture does block its key (else the test above proves nothing); fast with a short wait.
   */
  @Test
  void theCapturedFileBlocksItsKeyUntilItsIndexIsRebuilt() throws Exception {
    Path base = fixture("control");
    String insert =
        "insert into trestle_entity (table_id, partition_key, row_key, ticks, properties)"
            + " select id, '"
            + BLOCKED_PARTITION
            + "', '"
            + BLOCKED_ROW
            + "', 0, '{}' from trestle_table";
    try (Connection connection =
            DriverManager.getConnection("jdbc:h2:file:" + base + ";LOCK_TIMEOUT=100");
        Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeUpdate(insert))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Timeout trying to lock");
    }
  }

  /**
   * A repair killed between dropping a key and building it again leaves the file unclean: the next
   * open builds the missing key instead of passing it by.
   */
  @Test
  void aKeyARepairCutShortLeftMissingIsBuiltAtTheNextOpen() throws Exception {
    Path base = fixture("cut-short");
    String url = "jdbc:h2:file:" + base;
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute("ALTER TABLE trestle_table DROP CONSTRAINT trestle_table_name_uq");
      statement.execute(
          "CREATE UNIQUE INDEX trestle_entity_key_rebuilt"
              + " ON trestle_entity (table_id, partition_key, row_key)");
      statement.execute("DROP INDEX trestle_entity_key");
    }
    makeUnclean(base);
    try (TableService service = TableService.builder().jdbcUrl(url).build()) {
      assertThat(service.tableClient("Typed").listEntities().stream().count()).isEqualTo(3_000);
    }
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      assertThat(
              count(
                  statement,
                  "select count(*) from information_schema.indexes where table_schema = schema()"
                      + " and index_name = 'TRESTLE_ENTITY_KEY'"))
          .isEqualTo(1);
      assertThat(
              count(
                  statement,
                  "select count(*) from information_schema.indexes where table_schema = schema()"
                      + " and index_name = 'TRESTLE_ENTITY_KEY_REBUILT'"))
          .isZero();
      assertThat(
              count(
                  statement,
                  "select count(*) from information_schema.table_constraints where table_schema"
                      + " = schema() and constraint_name = 'TRESTLE_TABLE_NAME_UQ'"))
          .isEqualTo(1);
    }
  }

  private static long count(Statement statement, String query) throws SQLException {
    try (var result = statement.executeQuery(query)) {
      result.next();
      return result.getLong(1);
    }
  }

  /** The captured file was closed cleanly by the probe that found its key: nothing to rebuild. */
  @Test
  void aCleanFileIsNotRebuilt() throws IOException {
    Path base = fixture("clean");
    assertThat(H2IndexRepair.closedCleanly(Path.of(base + ".mv.db"))).isTrue();
    assertThat(H2IndexRepair.beforeOpening("jdbc:h2:file:" + base).needed()).isFalse();
    assertThat(H2IndexRepair.beforeOpening("jdbc:h2:file:" + dir.resolve("absent")).needed())
        .isFalse();
  }

  @Test
  void memoryServersAndOtherFileSystemsAreLeftAlone() {
    assertThat(H2IndexRepair.databaseFile("jdbc:h2:mem:t")).isNull();
    assertThat(H2IndexRepair.databaseFile("jdbc:h2:tcp://localhost/./t")).isNull();
    assertThat(H2IndexRepair.databaseFile("jdbc:h2:nio:./t")).isNull();
    assertThat(H2IndexRepair.databaseFile("jdbc:postgresql://localhost/t")).isNull();
    assertThat(H2IndexRepair.databaseFile("jdbc:h2:file:/var/t;WRITE_DELAY=0"))
        .isEqualTo(Path.of("/var/t.mv.db"));
    assertThat(H2IndexRepair.databaseFile("JDBC:H2:/var/t")).isEqualTo(Path.of("/var/t.mv.db"));
    assertThat(H2IndexRepair.databaseFile("jdbc:h2:~/t"))
        .isEqualTo(Path.of(System.getProperty("user.home"), "t.mv.db"));
  }

  /**
   * A file open in this process is in use, not killed; and it is not read, which would release H2's
   * lock on it (a POSIX lock goes with any descriptor of the file the process closes) and let a
   * second process open it.
   */
  @Test
  void aFileOpenInThisProcessIsNotTakenForAKilledOneNorUnlocked() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("open");
    try (TableService service = TableService.builder().jdbcUrl(url).build()) {
      service.createTable("Open");
      service.tableClient("Open").insert(TableEntity.builder("p", "r").build());
      assertThat(H2IndexRepair.beforeOpening(JdbcUrls.durable(url)).needed()).isFalse();
      assertThat(child("open", url)).startsWith("refused").contains("already in use");
    }
  }

  /** A file whose process was killed with SIGKILL after it wrote is taken for one. */
  @Test
  void aFileWhoseProcessWasKilledIsFoundUnclean() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("killed") + ";WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE";
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute("create table t (k int primary key)");
    }
    assertThat(H2IndexRepair.beforeOpening(url).needed()).isFalse();
    assertThat(child("write", url)).isEqualTo("killed");
    assertThat(H2IndexRepair.beforeOpening(url).needed()).isTrue();
  }

  /**
   * What the child process said: for "write", it writes to the database and is killed with SIGKILL
   * once it has committed ("killed"); for "open", whether it could open the database.
   */
  private static String child(String mode, String url) throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                // the tests run on the module path: the child takes it as its class path
                String.join(
                    java.io.File.pathSeparator,
                    System.getProperty("java.class.path", ""),
                    System.getProperty("jdk.module.path", "")),
                Child.class.getName(),
                mode,
                url)
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine();
      if ("committed".equals(line)) {
        process.destroyForcibly(); // SIGKILL
        process.waitFor(10, TimeUnit.SECONDS);
        return "killed";
      }
      process.waitFor(10, TimeUnit.SECONDS);
      return String.valueOf(line);
    } finally {
      process.destroyForcibly();
    }
  }

  /** The child process of {@link #child}. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      if (args[0].equals("open")) {
        try (Connection connection = DriverManager.getConnection(args[1])) {
          System.out.println("opened");
        } catch (SQLException e) {
          System.out.println("refused: " + e.getMessage());
        }
        return;
      }
      Connection connection = DriverManager.getConnection(args[1]);
      try (Statement statement = connection.createStatement()) {
        for (int i = 0; i < 100; i++) {
          statement.execute("insert into t values " + i);
        }
      }
      System.out.println("committed");
      System.out.flush();
      Thread.sleep(60_000);
    }
  }

  /** The captured file, unpacked as {@code name.mv.db}; the path without the extension. */
  private Path fixture(String name) throws IOException {
    Path base = dir.resolve(name).toAbsolutePath();
    try (InputStream in =
        new GZIPInputStream(getClass().getResourceAsStream("blocked-key.mv.db.gz"))) {
      Files.copy(in, Path.of(base + ".mv.db"));
    }
    return base;
  }

  /**
   * Drops {@code clean:1} from the file's header as a kill leaves it: the captured file was closed
   * cleanly by the probe that found its blocked key, after the kill that left the key. The header
   * is a text line H2 writes twice (at 0 and at 4096, the block size), ending in a Fletcher-32
   * checksum of the text before it; the rest of the file is untouched.
   */
  private static void makeUnclean(Path base) throws IOException {
    Path file = Path.of(base + ".mv.db");
    byte[] bytes = Files.readAllBytes(file);
    String header = new String(bytes, 0, 256, StandardCharsets.ISO_8859_1);
    header = header.substring(0, header.indexOf(",fletcher:"));
    assertThat(header).contains(",clean:1");
    byte[] text = header.replace(",clean:1", "").getBytes(StandardCharsets.ISO_8859_1);
    byte[] line =
        (new String(text, StandardCharsets.ISO_8859_1)
                + ",fletcher:"
                + Integer.toHexString(DataUtils.getFletcher32(text, 0, text.length))
                + "\n")
            .getBytes(StandardCharsets.ISO_8859_1);
    for (int block : new int[] {0, 4096}) {
      Arrays.fill(bytes, block, block + 4096, (byte) 0);
      System.arraycopy(line, 0, bytes, block, line.length);
    }
    Files.write(file, bytes);
    assertThat(H2IndexRepair.closedCleanly(file)).isFalse();
  }
}
