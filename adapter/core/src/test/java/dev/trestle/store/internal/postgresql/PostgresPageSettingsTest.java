package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.RecordingDataSource;
import dev.trestle.testing.RecordingDataSource.Execution;
import dev.trestle.testing.TestDatabase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

/**
 * PostgreSQL only (the page cursor): every page's transaction turns JIT off before it declares its
 * cursor, whatever the database's own setting, since JIT compiling a large scan costs more than it
 * saves on the filter's expressions.
 */
class PostgresPageSettingsTest {

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void everyPageTurnsJitOffBeforeItsCursor(TestDatabase database) {
    List<List<Execution>> transactions = new CopyOnWriteArrayList<>();
    DataSource recorded = RecordingDataSource.wrap(database.dataSource(), transactions::add);
    try (TableService service =
        TableService.builder()
            .dataSource(recorded)
            .account(TestDatabase.newAccount())
            .migrate(false)
            .build()) {
      service.createTable("jit");
      TableClient table = service.tableClient("jit");
      for (int i = 0; i < 20; i++) {
        table.insert(TableEntity.builder("p" + i % 2, "r" + i).put("n", i).build());
      }
      transactions.clear();
      for (EntityQuery query :
          List.of(
              EntityQuery.all(),
              EntityQuery.filter("n gt 3"),
              EntityQuery.filter("PartitionKey eq 'p1' and n lt 10"))) {
        assertThat(table.listEntities(query).stream().count()).isPositive();
      }
    }
    List<List<Execution>> pages =
        transactions.stream()
            .filter(t -> t.stream().anyMatch(e -> e.sql().startsWith("declare")))
            .toList();
    assertThat(pages).hasSizeGreaterThanOrEqualTo(3);
    for (List<Execution> page : pages) {
      int declare = 0;
      while (!page.get(declare).sql().startsWith("declare")) {
        declare++;
      }
      assertThat(page.subList(0, declare))
          .as("before %s", page.get(declare).sql())
          .anySatisfy(e -> assertThat(e.sql()).contains("set local jit = off"));
    }
  }
}
