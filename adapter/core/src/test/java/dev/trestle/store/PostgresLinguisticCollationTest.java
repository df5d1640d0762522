package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assumptions;

/**
 * PostgreSQL only: on a database whose default collation is linguistic (ICU or en_US), keys and
 * string properties still compare ordinally, 'B' < 'a' < 'é', because the schema and the filters
 * say COLLATE "C".
 */
class PostgresLinguisticCollationTest {

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void ordinalOrderOnALinguisticPostgreSqlDatabase(TestDatabase server) throws SQLException {
    String database =
        "trestle_ling_"
            + Integer.toString(ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE), 36);
    String created = createLinguisticDatabase(server, database);
    Assumptions.assumeTrue(created != null, "this PostgreSQL has neither ICU nor an en_US locale");
    try (HikariDataSource dataSource = dataSource(server, database)) {
      try (Connection connection = dataSource.getConnection();
          Statement statement = connection.createStatement();
          ResultSet order = statement.executeQuery("SELECT 'a' < 'B', 'B' < 'a' COLLATE \"C\"")) {
        order.next();
        assertThat(order.getBoolean(1))
            .as("the default collation (%s) is linguistic", created)
            .isTrue();
        assertThat(order.getBoolean(2)).isTrue();
      }
      try (TableService service =
          TableService.builder().dataSource(dataSource).account("linguistic").build()) {
        service.createTable("words");
        TableClient table = service.tableClient("words");
        for (String word : List.of("\u00e9", "a", "B", "b", "A")) {
          table.insert(TableEntity.builder(word, word).put("W", word).build());
        }
        List<String> keys =
            table.query(EntityQuery.all()).entities().stream()
                .map(TableEntity::partitionKey)
                .toList();
        assertThat(keys).containsExactly("A", "B", "a", "b", "\u00e9");
        List<String> below =
            table.query(EntityQuery.filter("W lt 'a'")).entities().stream()
                .map(TableEntity::rowKey)
                .toList();
        assertThat(below).containsExactly("A", "B");
        List<String> range =
            table
                .query(EntityQuery.filter("PartitionKey gt 'B' and RowKey le '\u00e9'"))
                .entities()
                .stream()
                .map(TableEntity::rowKey)
                .toList();
        assertThat(range).containsExactly("a", "b", "\u00e9");
      }
    } finally {
      try (Connection admin = server.dataSource().getConnection();
          Statement statement = admin.createStatement()) {
        statement.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
      }
    }
  }

  /**
   * Creates the database with ICU's en-US, else libc's en_US; returns which, or null when neither
   * exists.
   */
  private static String createLinguisticDatabase(TestDatabase server, String database)
      throws SQLException {
    List<String> attempts =
        List.of(
            "LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'",
            "LOCALE 'en_US.utf8'",
            "LOCALE 'en_US.UTF-8'");
    try (Connection admin = server.dataSource().getConnection();
        Statement statement = admin.createStatement()) {
      for (String locale : attempts) {
        try {
          statement.execute(
              "CREATE DATABASE " + database + " TEMPLATE template0 ENCODING 'UTF8' " + locale);
          return locale;
        } catch (SQLException unsupported) {
          // try the next kind of linguistic collation
        }
      }
    }
    return null;
  }

  private static HikariDataSource dataSource(TestDatabase server, String database) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(
        server.jdbcUrl().replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database));
    config.setUsername(server.username());
    config.setPassword(server.password());
    config.setMaximumPoolSize(2);
    return new HikariDataSource(config);
  }
}
