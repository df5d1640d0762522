package dev.trestle.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.RelaxedTransactions;
import dev.trestle.server.TrestleServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerSettingsTest {
  private static final DatabaseSettings.DatabaseFlags NO_DB_FLAGS =
      new DatabaseSettings.DatabaseFlags(null, null, null, null, null, null, null);
  private static final ServerSettings.ServerFlags NO_SERVER_FLAGS =
      new ServerSettings.ServerFlags(null, null, null, null, null);

  @Test
  void defaultsServeTheDevAccountOnLoopbackOverAnH2File() {
    ServerSettings settings =
        ServerSettings.resolve(Configuration.load(null, Map.of()), NO_DB_FLAGS, NO_SERVER_FLAGS);

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
  void slowClientLimitsDefaultToTheServersOwnAndHealthStaysOnTheApiPort() {
    ServerSettings settings =
        ServerSettings.resolve(Configuration.load(null, Map.of()), NO_DB_FLAGS, NO_SERVER_FLAGS);

    assertThat(settings.limits())
        .isEqualTo(
            new ServerSettings.ClientLimits(
                TrestleServer.DEFAULT_HEADER_TIMEOUT,
                TrestleServer.DEFAULT_MIN_BODY_RATE,
                TrestleServer.DEFAULT_MAX_CONNECTIONS));
    assertThat(settings.operations()).isEmpty();
    assertThat(settings.settingsRefresh()).isEqualTo(TrestleServer.DEFAULT_SETTINGS_REFRESH);
  }

  @Test
  void relaxedTransactionsAreOffUnlessGivenAndNeedTheExtensions() {
    assertThat(
            ServerSettings.resolve(Configuration.load(null, Map.of()), NO_DB_FLAGS, NO_SERVER_FLAGS)
                .relaxedTransactions())
        .isEmpty();
    assertThat(
            ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_RELAXED_TRANSACTIONS", "on")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS)
                .relaxedTransactions())
        .contains(RelaxedTransactions.DEFAULT);
    assertThat(
            ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_RELAXED_TRANSACTIONS", "500:8")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS)
                .relaxedTransactions())
        .contains(new RelaxedTransactions(500, 8L << 20));
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_RELAXED_TRANSACTIONS", "lots")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS))
        .hasMessageStartingWith("--relaxed-transactions must be off, on, or OPERATIONS:MIB");
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(
                        null,
                        Map.of("TRESTLE_RELAXED_TRANSACTIONS", "on", "TRESTLE_EXTENSIONS", "off")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS))
        .hasMessageContaining("--relaxed-transactions needs the extensions on");
  }

  @Test
  void theSettingsRefreshIsReadInSecondsAndZeroReadsOnEveryRequest() {
    assertThat(
            ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_SETTINGS_REFRESH", "0.5")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS)
                .settingsRefresh())
        .isEqualTo(Duration.ofMillis(500));
    assertThat(
            ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_SETTINGS_REFRESH", "0")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS)
                .settingsRefresh())
        .isZero();
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_SETTINGS_REFRESH", "-1")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS))
        .hasMessageStartingWith("--settings-refresh must be");
  }

  @Test
  void slowClientLimitsAreReadAndZeroTurnsThemOff() {
    ServerSettings settings =
        ServerSettings.resolve(
            Configuration.load(
                null,
                Map.of(
                    "TRESTLE_HEADER_TIMEOUT",
                    "2.5",
                    "TRESTLE_MIN_BODY_RATE",
                    "0",
                    "TRESTLE_MAX_CONNECTIONS",
                    "0")),
            NO_DB_FLAGS,
            NO_SERVER_FLAGS);
    assertThat(settings.limits())
        .isEqualTo(new ServerSettings.ClientLimits(Duration.ofMillis(2500), 0, 0));

    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_MAX_CONNECTIONS", "-1")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS))
        .hasMessage(
            "--max-connections must be a whole number from 0 to 1000000, but was '-1' (from "
                + "TRESTLE_MAX_CONNECTIONS).");
  }

  @Test
  void anOperationsPortListensOnTheApiHostUnlessToldOtherwise() {
    assertThat(
            ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_HOST", "0.0.0.0")),
                    NO_DB_FLAGS,
                    opsFlags(null, "9090"))
                .operations())
        .contains(new ServerSettings.OperationsAddress("0.0.0.0", 9090));
    assertThat(
            ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_HOST", "0.0.0.0")),
                    NO_DB_FLAGS,
                    opsFlags("127.0.0.1", "9090"))
                .operations())
        .contains(new ServerSettings.OperationsAddress("127.0.0.1", 9090));
  }

  @Test
  void anOperationsAddressNeedsAPortOfItsOwn() {
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of()), NO_DB_FLAGS, opsFlags("127.0.0.1", null)))
        .hasMessageStartingWith("--ops-host needs --ops-port");
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of()), NO_DB_FLAGS, opsFlags(null, "10002")))
        .hasMessageStartingWith("--ops-port must differ from --port (10002)");
  }

  private static ServerSettings.ServerFlags opsFlags(String opsHost, String opsPort) {
    return new ServerSettings.ServerFlags(
        null, null, null, null, null, opsHost, opsPort, null, null, null, null, null, null);
  }

  @Test
  void accountsParseWithOneOrTwoKeys() {
    ServerSettings settings =
        ServerSettings.resolve(
            Configuration.load(null, Map.of()),
            NO_DB_FLAGS,
            new ServerSettings.ServerFlags(
                null, null, List.of("alpha:QUJD", "beta:QUJD:REVG"), null, null));
    assertThat(settings.accounts())
        .containsExactly(
            new Account("alpha", List.of("QUJD")), new Account("beta", List.of("QUJD", "REVG")));
  }

  @Test
  void malformedAccountsAreRejectedWithoutEchoingTheKey() {
    Configuration configuration = Configuration.load(null, Map.of("TRESTLE_ACCOUNT", "Alpha:QUJD"));
    assertThatThrownBy(() -> ServerSettings.resolve(configuration, NO_DB_FLAGS, NO_SERVER_FLAGS))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("3-24 lower-case")
        .hasMessageContaining("TRESTLE_ACCOUNT");
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of()),
                    NO_DB_FLAGS,
                    new ServerSettings.ServerFlags(
                        null, null, List.of("alpha:not*base64"), null, null)))
        .hasMessageContaining("not base64")
        .message()
        .doesNotContain("not*base64");
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of()),
                    NO_DB_FLAGS,
                    new ServerSettings.ServerFlags(
                        null, null, List.of("alpha:QUJD", "alpha:REVG"), null, null)))
        .hasMessageContaining("twice");
  }

  @Test
  void onlyPostgresqlAndH2UrlsAreAccepted() {
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of("TRESTLE_DB", "jdbc:mysql://x/y")),
                    NO_DB_FLAGS,
                    NO_SERVER_FLAGS))
        .hasMessageStartingWith("--db must be a jdbc:postgresql: or jdbc:h2: URL")
        .hasMessageContaining("(from TRESTLE_DB)");
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of()),
                    new DatabaseSettings.DatabaseFlags(
                        "postgres://localhost/x", null, null, null, null, null, null),
                    NO_SERVER_FLAGS))
        .hasMessageContaining("'postgres://localhost/x'");
  }

  @Test
  void logLevelIsCheckedAndNormalised() {
    ServerSettings settings =
        ServerSettings.resolve(
            Configuration.load(null, Map.of("TRESTLE_LOG_LEVEL", "DEBUG")),
            NO_DB_FLAGS,
            NO_SERVER_FLAGS);
    assertThat(settings.logLevel()).isEqualTo("debug");
    assertThatThrownBy(
            () ->
                ServerSettings.resolve(
                    Configuration.load(null, Map.of()),
                    NO_DB_FLAGS,
                    new ServerSettings.ServerFlags(null, null, null, null, "loud")))
        .hasMessageContaining("--log-level must be one of");
  }

  @Test
  void redactionHidesPasswordsAndUserInfo() {
    assertThat(DatabaseSettings.redact("jdbc:postgresql://db/x?user=app&password=s3cret&ssl=true"))
        .isEqualTo("jdbc:postgresql://db/x?user=app&password=***&ssl=true");
    assertThat(DatabaseSettings.redact("jdbc:postgresql://app:s3cret@db/x"))
        .isEqualTo("jdbc:postgresql://***@db/x");
    assertThat(DatabaseSettings.redact("jdbc:h2:file:./data;PASSWORD=s3cret;MODE=x"))
        .isEqualTo("jdbc:h2:file:./data;PASSWORD=***;MODE=x");
  }
}
