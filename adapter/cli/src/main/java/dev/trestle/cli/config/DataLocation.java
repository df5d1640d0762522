package dev.trestle.cli.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * {@code --data-dir DIR} (Azurite's {@code --location}) and {@code --in-memory} (Azurite's {@code
 * --inMemoryPersistence}): two ways of choosing the H2 database without writing a JDBC URL. Either
 * one excludes {@code --db} from any source, and they exclude each other, as in Azurite.
 */
final class DataLocation {
  /** The database {@code --in-memory} opens: H2 in memory, kept while the server runs. */
  static final String IN_MEMORY_URL = "jdbc:h2:mem:trestle;DB_CLOSE_DELAY=-1";

  private DataLocation() {}

  /** The database flags with {@code --db} set from the data directory or in-memory setting. */
  static DatabaseSettings.DatabaseFlags apply(
      Configuration configuration,
      DatabaseSettings.DatabaseFlags flags,
      String dataDirFlag,
      Boolean inMemoryFlag) {
    Configuration.Value dataDir = configuration.resolve(Setting.DATA_DIR, dataDirFlag);
    boolean inMemory = configuration.bool(Setting.IN_MEMORY, inMemoryFlag);
    if (dataDir.text() == null && !inMemory) {
      return flags;
    }
    String chosenBy =
        inMemory
            ? Setting.IN_MEMORY.flag() + " (Azurite's --inMemoryPersistence)"
            : Setting.DATA_DIR.flag() + " (Azurite's --location)";
    if (inMemory && dataDir.text() != null) {
      throw new ConfigurationException(
          chosenBy
              + " keeps nothing on disk, but "
              + Setting.DATA_DIR.flag()
              + from(Setting.DATA_DIR, dataDir)
              + " names a data folder; give one of them.");
    }
    Configuration.Value db = configuration.resolve(Setting.DB, flags.db());
    if (!db.source().equals("default")) {
      throw new ConfigurationException(
          chosenBy
              + " and "
              + Setting.DB.flag()
              + from(Setting.DB, db)
              + " both choose the database; give one of them.");
    }
    String url = inMemory ? IN_MEMORY_URL : "jdbc:h2:file:" + folder(dataDir).resolve("trestle");
    return new DatabaseSettings.DatabaseFlags(
        url,
        flags.user(),
        flags.password(),
        flags.poolSize(),
        flags.startupWait(),
        flags.connectionTimeout(),
        flags.scalarStore());
  }

  private static Path folder(Configuration.Value dataDir) {
    try {
      return Path.of(dataDir.text().strip()).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw Configuration.invalid(Setting.DATA_DIR, dataDir, "a folder path");
    }
  }

  private static String from(Setting setting, Configuration.Value value) {
    return value.source().equals(setting.flag()) ? "" : " (from " + value.source() + ")";
  }
}
