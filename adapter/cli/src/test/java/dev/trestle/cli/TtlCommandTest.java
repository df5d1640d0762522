package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.TimeToLive;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.List;

/** trestle ttl, on H2 and PostgreSQL. */
class TtlCommandTest {

  private static CliRun ttl(TestDatabase db, String account, String... more) {
    List<String> rest =
        new java.util.ArrayList<>(List.of("--account", account, "--table", "Goods"));
    rest.addAll(List.of(more));
    return CliRun.run(
        CliDatabases.args(List.of("ttl"), CliDatabases.flags(db), rest.toArray(String[]::new)));
  }

  @DatabaseTest
  void showsSetsAndClearsATablesTimeToLive(TestDatabase db) {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account)) {
      service.createTable("Goods");

      CliRun shown = ttl(db, account);
      assertThat(shown.exitCode()).as(shown.err()).isZero();
      assertThat(shown.out().strip()).isEqualTo("Goods: no time to live");

      CliRun set = ttl(db, account, "--default", "3600");
      assertThat(set.exitCode()).as(set.err()).isZero();
      assertThat(set.out()).contains("3600 s after their last write");
      assertThat(service.tableClient("Goods").extensions().timeToLive())
          .isEqualTo(TimeToLive.of(Duration.ofHours(1)));

      assertThat(ttl(db, account, "--entities-only").out()).contains("own TrestleExpires only");
      assertThat(ttl(db, account, "--off").out().strip()).isEqualTo("Goods: no time to live");
      assertThat(service.tableClient("Goods").extensions().timeToLive()).isEqualTo(TimeToLive.OFF);

      assertThat(ttl(db, account, "--default", "0").exitCode()).isEqualTo(ExitCode.USAGE);
      assertThat(ttl(db, account, "--off", "--entities-only").exitCode()).isEqualTo(ExitCode.USAGE);
    }
  }
}
