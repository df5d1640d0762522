package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.util.List;

/** trestle index create, list and drop, on H2 and PostgreSQL. */
class IndexCommandTest {

  @DatabaseTest
  void createListAndDropAnIndexFromTheCommandLine(TestDatabase db) {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account)) {
      service.createTable("Goods");
      service.tableClient("Goods").insert(TableEntity.builder("p", "r").put("Price", 5).build());
    }
    boolean builds = db.kind() != TestDatabase.Kind.H2;

    CliRun created = run(db, account, "create", "--property", "Price", "--type", "Int32");
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out())
        .startsWith("Goods Price Edm.Int32 " + (builds ? "ready " : "not built"));

    CliRun again = run(db, account, "create", "--property", "Price", "--type", "Edm.Double");
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).as("numbers share one index").startsWith("Goods Price Edm.Int32 ");

    CliRun timestamp = run(db, account, "create", "--property", "Timestamp", "--type", "DateTime");
    assertThat(timestamp.exitCode()).as(timestamp.err()).isZero();

    CliRun list = run(db, account, "list");
    assertThat(list.exitCode()).as(list.err()).isZero();
    assertThat(list.out().lines().toList())
        .hasSize(2)
        .anySatisfy(line -> assertThat(line).startsWith("Goods Price Edm.Int32"))
        .anySatisfy(line -> assertThat(line).startsWith("Goods Timestamp Edm.DateTime"));
    if (builds) {
      assertThat(list.out()).containsPattern("ready \\d+ kB");
    }

    CliRun dropped = run(db, account, "drop", "--property", "Price", "--type", "Int64");
    assertThat(dropped.out()).startsWith("Dropped the index on Price");
    CliRun droppedAgain = run(db, account, "drop", "--property", "Price", "--type", "Int32");
    assertThat(droppedAgain.out()).startsWith("No index was declared on Price");
    assertThat(run(db, account, "list").out().lines().toList()).hasSize(1);
  }

  @DatabaseTest
  void anIndexOverSeveralPropertiesIsCreatedListedAndDroppedFromTheCommandLine(TestDatabase db) {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account)) {
      service.createTable("Goods");
    }
    String[] both = {
      "--property", "Category", "--type", "String", "--property", "Price", "--type", "Int32"
    };
    CliRun created = run(db, account, "create", both);
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out()).startsWith("Goods Category Edm.String + Price Edm.Int32 ");
    assertThat(run(db, account, "list").out())
        .startsWith("Goods Category Edm.String + Price Edm.Int32 ");

    CliRun unpaired =
        run(
            db,
            account,
            "create",
            "--property",
            "Category",
            "--property",
            "Price",
            "--type",
            "String");
    assertThat(unpaired.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(unpaired.err()).contains("one --type for each --property");
    CliRun other = run(db, account, "create", "--property", "Category", "--type", "String");
    assertThat(other.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(other.err()).contains("InvalidInput").contains("drop it first");

    CliRun dropped = run(db, account, "drop", both);
    assertThat(dropped.exitCode()).as(dropped.err()).isZero();
    assertThat(dropped.out())
        .startsWith("Dropped the index on Category (Edm.String) + Price (Edm.Int32) of Goods");
    assertThat(run(db, account, "list").out()).startsWith("No indexes declared");
  }

  @DatabaseTest
  void badTypesKeysAndTablesAreRefusedWithAClearError(TestDatabase db) {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account)) {
      service.createTable("Goods");
    }
    CliRun badType = run(db, account, "create", "--property", "Price", "--type", "Money");
    assertThat(badType.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(badType.err()).contains("--type takes String, Int32");

    CliRun key = run(db, account, "create", "--property", "PartitionKey", "--type", "String");
    assertThat(key.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(key.err()).contains("InvalidInput").contains("always indexed");

    CliRun missing =
        CliRun.run(
            CliDatabases.args(
                List.of("index", "list"),
                CliDatabases.flags(db),
                "--account",
                account,
                "--table",
                "Nope"));
    assertThat(missing.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(missing.err()).contains("TableNotFound");
  }

  private static CliRun run(TestDatabase db, String account, String command, String... more) {
    String[] rest = new String[more.length + 4];
    rest[0] = "--account";
    rest[1] = account;
    rest[2] = "--table";
    rest[3] = "Goods";
    System.arraycopy(more, 0, rest, 4, more.length);
    return CliRun.run(CliDatabases.args(List.of("index", command), CliDatabases.flags(db), rest));
  }
}
