package dev.trestle.samples.sdk;

import com.azure.core.http.rest.PagedResponse;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import java.io.PrintStream;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * An ordinary Azure Table Storage application: nothing in it knows about Trestle except the
 * connection string. Creates a table, inserts, runs a batch, queries with a filter page by page,
 * and shows optimistic concurrency refusing a stale update.
 *
 * <p>Run it against {@code ./trestle serve}: {@code ./mvnw -q -pl samples/java-sdk -am package
 * -DskipTests -Psdk-sample}; pass another connection string with {@code -Dsample.argument=...} or
 * in {@code TRESTLE_CONNECTION_STRING}.
 */
public final class SdkSample {
  /** The storage emulator's published development key; Trestle serves this account by default. */
  static final String DEV_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  static final String LOCAL_TRESTLE =
      "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
          + DEV_KEY
          + ";TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;";

  private SdkSample() {}

  /** What the sample saw, so a test can check it. */
  public record Summary(
      int inserted, int matched, int pages, boolean staleUpdateRejected, boolean shipped) {}

  public static void main(String[] args) {
    String fromEnvironment = System.getenv("TRESTLE_CONNECTION_STRING");
    String connectionString =
        args.length > 0 && !args[0].isBlank()
            ? args[0]
            : fromEnvironment != null ? fromEnvironment : LOCAL_TRESTLE;
    System.out.println(run(connectionString, System.out));
  }

  public static Summary run(String connectionString, PrintStream out) {
    TableServiceClient service =
        new TableServiceClientBuilder().connectionString(connectionString).buildClient();
    String tableName = "sdksample" + System.currentTimeMillis();
    TableClient orders = service.createTable(tableName);
    try {
      String customer = "customer-42";

      // Insert one entity with typed properties.
      orders.createEntity(
          new TableEntity(customer, "order-000")
              .addProperty("Product", "Trestle")
              .addProperty("Quantity", 3)
              .addProperty("Price", 9.99)
              .addProperty("Placed", OffsetDateTime.of(2024, 5, 6, 7, 8, 9, 0, ZoneOffset.UTC))
              .addProperty("Shipped", false));

      // A batch (entity-group transaction): ten more orders of one partition, all or nothing.
      List<TableTransactionAction> batch = new ArrayList<>();
      for (int i = 1; i <= 10; i++) {
        batch.add(
            new TableTransactionAction(
                TableTransactionActionType.CREATE,
                new TableEntity(customer, String.format("order-%03d", i))
                    .addProperty("Product", "Trestle")
                    .addProperty("Quantity", i)
                    .addProperty("Shipped", false)));
      }
      orders.submitTransaction(batch);

      // Query with a filter, four entities per page: each page after the first follows a
      // continuation token.
      ListEntitiesOptions query =
          new ListEntitiesOptions()
              .setFilter("PartitionKey eq '" + customer + "' and Quantity ge 2")
              .setTop(4);
      int pages = 0;
      int matched = 0;
      for (PagedResponse<TableEntity> page :
          orders.listEntities(query, null, null).iterableByPage()) {
        pages++;
        matched += page.getValue().size();
      }
      out.println("Queried " + matched + " orders in " + pages + " pages");

      // Optimistic concurrency: the second writer holds a stale ETag and is refused with 412.
      TableEntity stale = orders.getEntity(customer, "order-000");
      TableEntity fresh = orders.getEntity(customer, "order-000");
      orders.updateEntityWithResponse(
          fresh.addProperty("Shipped", true), TableEntityUpdateMode.REPLACE, true, null, null);
      boolean rejected = false;
      try {
        orders.updateEntityWithResponse(
            stale.addProperty("Quantity", 99), TableEntityUpdateMode.REPLACE, true, null, null);
      } catch (TableServiceException e) {
        rejected = e.getResponse().getStatusCode() == 412;
      }
      out.println("Stale update rejected: " + rejected);

      boolean shipped = (Boolean) orders.getEntity(customer, "order-000").getProperty("Shipped");
      return new Summary(1 + batch.size(), matched, pages, rejected, shipped);
    } finally {
      service.deleteTable(tableName);
    }
  }
}
