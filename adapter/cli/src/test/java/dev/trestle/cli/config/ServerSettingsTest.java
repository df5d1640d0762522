package dev.trestle.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerSettingsTest {
  private static final DatabaseSettings.DatabaseFlags NO_DB_FLAGS =
      new DatabaseSettings.DatabaseFlags(null, null, null, null, null, null);
  private static final ServerSettings.ServerFlags NO_SERVER_FLAGS =
      new ServerSettings.ServerFlags(null, null, null, null, null);

  @Test
  void defaultsServeTheDevAccountOnLoopbackOverAnH2File() {
    ServerSettings settings = ServerSettings.resolve(Configuration.load(null, Map.of()), NO_DB_FLAGS, NO_SERVER_FLAGS);

    assertThat(settings.database().jdbcUrl()).startsWith("jdbc:h2:file:./trestle-data/");
    assertThat(settings.database().poolSize()).isEqualTo(10);
    assertThat(settings.database().startupWait()).isEqualTo(Duration.ofSeconds(30));
    assertThat(settings.host()).isEqualTo("127.0.0.1");
    assertThat(settings.port()).isEqualTo(10002);
    assertThat(settings.accounts()).isEmpty();
    assertThat(settings.allowAnonymous()).isFalse();
    assertThat(settings.logLevel()).isEqualTo("info");
  }

  @Test
  void accountsParseWithOneOrTwoKeys() {
    ServerSettings settings = ServerSettings.resolve(Configuration.load(null, Map.of()), NO_DB_FLAGS,
        new ServerSettings.ServerFlags(null, null, List.of("alpha:QUJD", "beta:QUJD:REVG"), null, null));
    assertThat(settings.accounts()).containsExactly(
        new Account("alpha", List.of("QUJD")), new Account("beta", List.of("QUJD", "REVG")));
  }

  @Test
  void malformedAccountsAreRejectedWithoutEchoingTheKey() {
    Configuration configuration = Configuration.load(null, Map.of("TRESTLE_ACCOUNT", "Alpha:QUJD"));
    assertThatThrownBy(() -> ServerSettings.resolve(configuration, NO_DB_FLAGS, NO_SERVER_FLAGS))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("3-24 lower-case")
        .hasMessageContaining("TRESTLE_ACCOUNT");
    assertThatThrownBy(() -> ServerSettings.resolve(Configuration.load(null, Map.of()), NO_DB_FLAGS,
        new ServerSettings.ServerFlags(null, null, List.of("alpha:not*base64"), null, null)))
        .hasMessageContaining("not base64")
        .message().doesNotContain("not*base64");
    assertThatThrownBy(() -> ServerSettings.resolve(Configuration.load(null, Map.of()), NO_DB_FLAGS,
        new ServerSettings.ServerFlags(null, null, List.of("alpha:QUJD", "alpha:REVG"), null, null)))
        .hasMessageContaining("twice");
  }

  @Test
  void onlyPostgresqlAndH2UrlsAreAccepted() {
    assertThatThrownBy(() -> ServerSettings.resolve(Configuration.load(null, Map.of("TRESTLE_DB", "jdbc:mysql://x/y")),
        NO_DB_FLAGS, NO_SERVER_FLAGS))
        .hasMessageStartingWith("--db must be a jdbc:postgresql: or jdbc:h2: URL")
        .hasMessageContaining("(from TRESTLE_DB)");
    assertThatThrownBy(() -> ServerSettings.resolve(Configuration.load(null, Map.of()),
        new DatabaseSettings.DatabaseFlags("postgres://localhost/x", null, null, null, null, null), NO_SERVER_FLAGS))
        .hasMessageContaining("'postgres://localhost/x'");
  }

  @Test
  void logLevelIsCheckedAndNormalised() {
    ServerSettings settings = ServerSettings.resolve(Configuration.load(null, Map.of("TRESTLE_LOG_LEVEL", "DEBUG")),
        NO_DB_FLAGS, NO_SERVER_FLAGS);
    assertThat(settings.logLevel()).isEqualTo("debug");
    assertThatThrownBy(() -> ServerSettings.resolve(Configuration.load(null, Map.of()), NO_DB_FLAGS,
        new ServerSettings.ServerFlags(null, null, null, null, "loud")))
        .hasMessageContaining("--log-level must be one of");
  }

  @Test
  void redactionHidesPasswordsAndUserInfo() {
    assertThat(DatabaseSettings.redact("jdbc:postgresql://db/x?user=app&password=s3cret&ssl=true"))
        .isEqualTo("jdbc:postgresql://db/x?user=app&password=***&ssl=true");
    assertThat(DatabaseSettings.redact("jdbc:postgresql://app:s3cret@db/x")).isEqualTo("jdbc:postgresql://***@db/x");
    assertThat(DatabaseSettings.redact("jdbc:h2:file:./data;PASSWORD=s3cret;MODE=x")).isEqualTo("jdbc:h2:file:./data;PASSWORD=***;MODE=x");
  }
}
