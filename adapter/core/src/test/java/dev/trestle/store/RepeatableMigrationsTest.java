package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * A repeatable script ({@code R__*.sql}) changes only with a new schema version. Flyway applies
 * such a script again whenever its text differs from the one last applied, so without a new version
 * an older Trestle started on the database would put its own script back over the newer one's; with
 * it, the older Trestle refuses the database ({@link SchemaMigrator#refuseNewerSchema}).
 */
class RepeatableMigrationsTest {
  private static final Path MIGRATIONS = Path.of("../../migrations");
  private static final String RECORDED = "repeatable-migrations.txt";

  @Test
  void repeatableScriptsChangeOnlyWithANewSchemaVersion() throws Exception {
    List<String> now = new ArrayList<>();
    now.add("version " + newestVersion());
    for (String folder : List.of("h2", "postgresql")) {
      try (Stream<Path> scripts = Files.list(MIGRATIONS.resolve(folder))) {
        for (Path script :
            scripts.filter(p -> p.getFileName().toString().startsWith("R__")).sorted().toList()) {
          now.add(sha256(Files.readAllBytes(script)) + " " + folder + "/" + script.getFileName());
        }
      }
    }
    assertThat(now)
        .as(
            "The repeatable scripts differ from those recorded in src/test/resources/dev/trestle/"
                + "store/%s for this version. If one changed, add a versioned migration (one that"
                + " does nothing will do: SELECT 1;) to both databases' folders; then record these"
                + " lines there:%n%s",
            RECORDED, String.join("\n", now))
        .isEqualTo(recorded());
  }

  /** The version a new database reaches: the newest this Trestle carries. */
  private static String newestVersion() {
    JdbcDataSource empty = new JdbcDataSource();
    empty.setURL("jdbc:h2:mem:repeatable_migrations;DB_CLOSE_DELAY=-1");
    return SchemaMigrator.migrate(empty);
  }

  private static List<String> recorded() throws IOException {
    try (InputStream in = RepeatableMigrationsTest.class.getResourceAsStream(RECORDED)) {
      assertThat(in).as(RECORDED).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(line -> !line.isBlank() && !line.startsWith("#"))
          .toList();
    }
  }

  private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
