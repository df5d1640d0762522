package dev.trestle.store;

import dev.trestle.store.internal.h2.OrphanedVersions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs an H2 file that was not closed cleanly (a killed process): reverts the row versions that
 * belong to no transaction, then rebuilds its unique indexes, where a key may be blocked for good.
 *
 * <p>H2 2.3.232 saves its maps one after another while other transactions commit (h2database issue
 * 2080), so a process killed during concurrent commits can leave in the file a row version that no
 * transaction owns: part of a transaction never acknowledged, invisible to reads except to a later
 * transaction given the same number (which takes it for its own), while every insert of its key
 * waits for it in the unique index until H2's lock timeout (ServerBusy), forever. Trestle's writers
 * pass a gate so that no save overlaps a transaction ({@code OneWriterAtATime}); the repair is what
 * a file from before it, or from a cause not yet known, still needs. {@link OrphanedVersions}
 * reverts such versions to their committed values, and a unique index built again from the table's
 * rows no longer holds one. Whether the file was closed cleanly is read from its header (a text
 * line at offset 0 that H2 writes with {@code clean:1} when it closes the file, and rewrites only
 * then or when it moves its chunks), so it must be read before the file is opened: {@link
 * #beforeOpening}, then {@link #afterMigrations} once the schema is there. A file in use (locked by
 * this or another process) is never taken for a killed one. In-memory databases, H2 servers and
 * other H2 file systems ({@code nio:}, {@code split:}, ...) are left alone, as is a DataSource an
 * application builds itself.
 */
public final class H2IndexRepair {
  private static final Logger log = LoggerFactory.getLogger(H2IndexRepair.class);

  /** Nothing to repair: a clean, new, in-use or not H2-file database. */
  private static final H2IndexRepair NONE = new H2IndexRepair(null);

  private static final String H2 = "jdbc:h2:";

  /** An H2 file system other than {@code file:} ({@code nio:}, {@code split:}, {@code tcp:}...). */
  private static final Pattern OTHER_FILE_SYSTEM = Pattern.compile("[A-Za-z][A-Za-z0-9]+:.*");

  /**
   * The unique indexes a write can conflict on, in the schema of migrations/h2, each with the
   * statements that build it again. A single BIGINT primary key is H2's row key, not an index, and
   * no rebuild reaches it: trestle_table's needs nothing (an identity, whose new rows take new
   * values); trestle_feed's (the table's id) could keep a version that blocks enabling that one
   * table's change feed, which only a copy of the table would clear, and is left as it is.
   */
  private static final List<UniqueKey> KEYS =
      List.of(
          // A plain unique index: built under a new name before the old one is dropped, so that a
          // failed build leaves the key as it was. Entities are what a rebuild may take long for.
          // Each step may have been done already by a repair a kill cut short.
          new UniqueKey(
              "trestle_entity_key",
              "trestle_entity",
              null,
              List.of(),
              List.of(
                  "DROP INDEX IF EXISTS trestle_entity_key_rebuilt",
                  "CREATE UNIQUE INDEX trestle_entity_key_rebuilt"
                      + " ON trestle_entity (table_id, partition_key, row_key)",
                  "DROP INDEX IF EXISTS trestle_entity_key",
                  "ALTER INDEX trestle_entity_key_rebuilt RENAME TO trestle_entity_key")),
          // Constraints own their index: DROP INDEX refuses it, and a constraint added first would
          // take over the existing index rather than build one, so each is dropped and added again.
          constraint("trestle_table_name_uq", "trestle_table", "UNIQUE (account, name_key)"),
          constraint(
              "trestle_property_index_pk",
              "trestle_property_index",
              "PRIMARY KEY (table_id, property, value_kind)"),
          constraint(
              "trestle_property_index_name_uq", "trestle_property_index", "UNIQUE (index_name)"),
          constraint("trestle_change_pk", "trestle_change", "PRIMARY KEY (table_id, position)"),
          new UniqueKey(
              "trestle_service_properties primary key",
              "trestle_service_properties",
              "select count(*) from information_schema.table_constraints where table_schema ="
                  + " schema() and table_name = 'TRESTLE_SERVICE_PROPERTIES'"
                  + " and constraint_type = 'PRIMARY KEY'",
              List.of("ALTER TABLE trestle_service_properties DROP PRIMARY KEY"),
              List.of("ALTER TABLE trestle_service_properties ADD PRIMARY KEY (account)")));

  private final Path file;

  private H2IndexRepair(Path file) {
    this.file = file;
  }

  /**
   * Reads the header of the H2 file the URL names, before anything opens it: a repair is needed
   * when the file exists, is not in use and was not closed cleanly.
   */
  public static H2IndexRepair beforeOpening(String jdbcUrl) {
    Path file = databaseFile(jdbcUrl);
    if (file == null || !Files.isRegularFile(file)) {
      return NONE;
    }
    try {
      // in use first: reading the header of a file this process has open would unlock it
      return !inUse(file) && !closedCleanly(file) ? new H2IndexRepair(file) : NONE;
    } catch (IOException e) {
      log.debug("Could not read the header of {}; no index repair", file, e);
      return NONE;
    }
  }

  /** Whether the file was found not closed cleanly, so that {@link #afterMigrations} rebuilds. */
  public boolean needed() {
    return file != null;
  }

  /**
   * Rebuilds the unique indexes of Trestle's schema present in the database, when {@link #needed},
   * and logs at WARN what it rebuilt and how long it took. Run it once the schema is migrated and
   * before anything writes (nothing may insert while a key's index is dropped).
   *
   * @throws IllegalStateException naming the statement that failed and the manual remedy
   */
  public void afterMigrations(DataSource dataSource) {
    if (file == null) {
      return;
    }
    long start = System.nanoTime();
    List<String> rebuilt = new ArrayList<>();
    int orphans;
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      // first, so that the indexes are built again from rows as H2 reports them committed
      orphans = OrphanedVersions.revert(connection);
      for (UniqueKey key : KEYS) {
        if (key.tableExists(connection)) {
          for (String sql : key.statements(connection)) {
            try {
              statement.execute(sql);
            } catch (SQLException e) {
              throw new IllegalStateException(
                  "Rebuilding the unique index "
                      + key.name()
                      + " of the H2 file "
                      + file
                      + ", which was not closed cleanly, failed at '"
                      + sql
                      + "': "
                      + e.getMessage()
                      + ". Run the statements of dev.trestle.store.H2IndexRepair in H2's shell.",
                  e);
            }
          }
          rebuilt.add(key.name());
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Cannot rebuild the unique indexes of " + file + ": " + e.getMessage(), e);
    }
    log.warn(
        "The H2 file {} was not closed cleanly (a killed process?): reverted {} row versions of no"
            + " transaction and rebuilt its unique indexes {} in {} ms, so that no write the kill"
            + " left half saved is seen or blocks a key (h2database#2080)",
        file,
        orphans,
        String.join(", ", rebuilt),
        (System.nanoTime() - start) / 1_000_000);
  }

  /**
   * The {@code .mv.db} file of an embedded H2 file URL ({@code jdbc:h2:file:PATH}, {@code
   * jdbc:h2:PATH}, {@code ~} for the home directory), or null for anything else.
   */
  static Path databaseFile(String jdbcUrl) {
    if (jdbcUrl == null
        || !jdbcUrl.regionMatches(true, 0, H2, 0, H2.length())
        || JdbcUrls.isInMemory(jdbcUrl)) {
      return null;
    }
    String name = jdbcUrl.substring(H2.length());
    int settings = name.indexOf(';');
    if (settings >= 0) {
      name = name.substring(0, settings);
    }
    if (name.toLowerCase(Locale.ROOT).startsWith("file:")) {
      name = name.substring("file:".length());
    } else if (OTHER_FILE_SYSTEM.matcher(name).matches()) {
      return null;
    }
    if (name.isEmpty()) {
      return null;
    }
    if (name.startsWith("~")) {
      name = System.getProperty("user.home") + name.substring(1);
    }
    return Path.of(name + ".mv.db").toAbsolutePath();
  }

  /** Whether the MVStore header (the text line at offset 0) says the file was closed cleanly. */
  static boolean closedCleanly(Path file) throws IOException {
    byte[] block = new byte[512];
    int read;
    try (InputStream in = Files.newInputStream(file)) {
      read = in.readNBytes(block, 0, block.length);
    }
    String header = new String(block, 0, read, StandardCharsets.ISO_8859_1);
    int end = header.indexOf('\n');
    if (!header.startsWith("H:") || end < 0) {
      return true; // not a header this knows: assume nothing
    }
    return ("," + header.substring(0, end) + ",").contains(",clean:1,");
  }

  /**
   * Whether a process holds H2's lock on the file, this one included: then its header says nothing
   * of a kill, the database being open. H2 locks the file with a POSIX record lock, which the
   * system releases when this process closes any descriptor of the file: reading the header of a
   * file this process has open would let another process open it too. So this process's open files
   * are read from /proc/self/fd first, and where there is no such list (other than on Windows,
   * whose locks belong to one handle) the file counts as in use and is never checked.
   */
  static boolean inUse(Path file) throws IOException {
    Path procFds = Path.of("/proc/self/fd");
    if (Files.isDirectory(procFds)) {
      Path real = file.toRealPath();
      try (var fds = Files.list(procFds)) {
        for (Path fd : (Iterable<Path>) fds::iterator) {
          try {
            if (Files.readSymbolicLink(fd).equals(real)) {
              return true;
            }
          } catch (IOException | UnsupportedOperationException e) {
            // closed since the listing, or not a link
          }
        }
      }
    } else if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
      return true;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true);
      if (lock == null) {
        return true;
      }
      lock.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    }
  }

  private static UniqueKey constraint(String name, String table, String definition) {
    return new UniqueKey(
        name,
        table,
        "select count(*) from information_schema.table_constraints"
            + " where table_schema = schema() and constraint_name = '"
            + name.toUpperCase(Locale.ROOT)
            + "'",
        List.of("ALTER TABLE " + table + " DROP CONSTRAINT " + name),
        List.of("ALTER TABLE " + table + " ADD CONSTRAINT " + name + " " + definition));
  }

  /**
   * A unique key of the schema: its table, how to tell the key is there (null: its statements tell
   * themselves), the statements that drop it, and those that build it. A key found missing is built
   * all the same: a repair killed between dropping and building it must not leave it missing.
   */
  private record UniqueKey(
      String name, String table, String presence, List<String> drop, List<String> build) {

    boolean tableExists(Connection connection) throws SQLException {
      return count(
              connection,
              "select count(*) from information_schema.tables where table_schema = schema()"
                  + " and table_name = '"
                  + table.toUpperCase(Locale.ROOT)
                  + "'")
          > 0;
    }

    List<String> statements(Connection connection) throws SQLException {
      if (presence == null || count(connection, presence) == 0) {
        return build;
      }
      List<String> all = new ArrayList<>(drop);
      all.addAll(build);
      return all;
    }

    private static long count(Connection connection, String query) throws SQLException {
      try (PreparedStatement statement = connection.prepareStatement(query);
          ResultSet result = statement.executeQuery()) {
        return result.next() ? result.getLong(1) : 0;
      }
    }
  }
}
