package dev.trestle.store.internal.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.store.internal.h2.H2DatabaseType;
import dev.trestle.store.internal.postgresql.PostgresDatabaseType;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import org.junit.jupiter.api.Test;

class DatabaseTypesTest {

  @Test
  void recognisesEachSupportedDatabaseByItsJdbcProductName() {
    assertThat(DatabaseTypes.recognise("H2")).isInstanceOf(H2DatabaseType.class);
    assertThat(DatabaseTypes.recognise("PostgreSQL")).isInstanceOf(PostgresDatabaseType.class);
    assertThat(DatabaseTypes.recognise("postgresql").migrationFolder()).isEqualTo("postgresql");
    assertThat(DatabaseTypes.recognise("h2").migrationFolder()).isEqualTo("h2");
  }

  @Test
  void refusesAnUnsupportedDatabaseNamingTheSupportedOnes() {
    assertThatThrownBy(() -> DatabaseTypes.recognise("MySQL"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Trestle supports H2 and PostgreSQL, not MySQL. Point the JDBC URL at one of them.");
  }

  @DatabaseTest
  void recognisesTheDatabaseBehindADataSource(TestDatabase database) {
    DatabaseType type = DatabaseTypes.of(database.dataSource());
    assertThat(type)
        .isInstanceOf(
            database.kind() == TestDatabase.Kind.H2
                ? H2DatabaseType.class
                : PostgresDatabaseType.class);
  }
}
