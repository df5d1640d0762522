package dev.trestle.samples.embedded;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableException;
import dev.trestle.TableService;
import java.io.PrintStream;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * Trestle as a library: Azure Table semantics on a {@link DataSource} your application already has
 * (here an in-memory H2 database; a PostgreSQL pool works the same). No server, no HTTP.
 */
public final class EmbeddedSample {
  private EmbeddedSample() {}

  /** What the sample saw, so a test can check it. */
  public record Summary(long quantityAtLeastTwo, boolean shipped, String staleWriteError) {}

  public static void main(String[] args) {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL(
        args.length > 0 && !args[0].isBlank()
            ? args[0]
            : "jdbc:h2:mem:embedded-sample;DB_CLOSE_DELAY=-1");
    System.out.println(run(dataSource, System.out));
  }

  public static Summary run(DataSource dataSource, PrintStream out) {
    try (TableService tables = TableService.builder().dataSource(dataSource).build()) {
      TableClient orders = tables.tableClient(tables.createTableIfNotExists("orders").name());

      orders.upsertReplace(
          TableEntity.builder("customer-42", "order-001")
              .put("Quantity", 3)
              .put("Shipped", false)
              .build());
      orders.upsertReplace(
          TableEntity.builder("customer-42", "order-002")
              .put("Quantity", 1)
              .put("Shipped", false)
              .build());

      // Read, then write back conditionally on the ETag that was read.
      TableEntity read = orders.get("customer-42", "order-001");
      orders.merge(read.toBuilder().put("Shipped", true).build(), read.etag());
      String staleWriteError = null;
      try {
        orders.merge(read.toBuilder().put("Quantity", 99).build(), read.etag());
      } catch (TableException e) {
        staleWriteError =
            e.errorCode().code(); // UpdateConditionNotSatisfied: someone wrote in between
      }

      EntityPage page =
          orders.query(EntityQuery.filter("PartitionKey eq 'customer-42' and Quantity ge 2"));
      page.entities().forEach(entity -> out.println(entity.rowKey() + " " + entity.properties()));
      boolean shipped =
          (Boolean)
              orders.get("customer-42", "order-001").property("Shipped").orElseThrow().value();
      return new Summary(page.entities().size(), shipped, staleWriteError);
    }
  }
}
