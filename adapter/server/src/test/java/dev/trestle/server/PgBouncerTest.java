package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.EntityQuery;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.store.TransactionPooler;
import dev.trestle.testing.PgBouncer;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two servers on one PostgreSQL database through a real PgBouncer in transaction mode, with the
 * JDBC URL an operator would write: contended If-Match updates lose nothing, batches all land, and
 * nothing answers 5xx.
 */
class PgBouncerTest {
  private static final String DATABASE = "trestle_pgbouncer_test";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int CLIENTS = 8;
  private static final int UPDATES_PER_CLIENT = 60;

  private static PgBouncer bouncer;
  private static final List<TableService> services = new ArrayList<>();
  private static final List<ServerFixture> servers = new ArrayList<>();
  private static String account;

  @BeforeAll
  static void startTwoServersBehindPgBouncer() throws Exception {
    bouncer = PgBouncer.inFrontOfTestPostgres(DATABASE, 3);
    TableService.builder()
        .jdbcUrl(bouncer.directUrl())
        .credentials(bouncer.user(), bouncer.password())
        .migrate(true)
        .build()
        .close();
    account = TestDatabase.newAccount();
    for (int i = 0; i < 2; i++) {
      TableService service =
          TableService.builder()
              .jdbcUrl(bouncer.jdbcUrl())
              .credentials(bouncer.user(), bouncer.password())
              .maximumPoolSize(6)
              .account(account)
              .migrate(false)
              .build();
      services.add(service);
      servers.add(
          new ServerFixture(
              account,
              TrestleServer.builder(service)
                  .port(0)
                  .account(account, TrestleServer.DEV_ACCOUNT_KEY)));
    }
  }

  @AfterAll
  static void stop() {
    servers.forEach(ServerFixture::close);
    services.forEach(TableService::close);
    if (bouncer != null) {
      bouncer.close();
    }
  }

  @Test
  void aTransactionPoolerIsRecognisedAndAPlainConnectionIsLeftAlone() {
    assertThat(TransactionPooler.adapt(bouncer.jdbcUrl(), bouncer.user(), bouncer.password()))
        .contains("prepareThreshold=0");
    assertThat(TransactionPooler.adapt(bouncer.directUrl(), bouncer.user(), bouncer.password()))
        .isEqualTo(bouncer.directUrl());
  }

  @Test
  void aCallersDataSourceThroughThePoolerIsRefusedUntilItsStatementsAreUnnamed() {
    for (boolean autoCommit : new boolean[] {true, false}) {
      try (com.zaxxer.hikari.HikariDataSource named = callerPool(bouncer.jdbcUrl(), autoCommit)) {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> TableService.builder().dataSource(named).account(account).build())
            .as("auto-commit %s", autoCommit)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("prepareThreshold=0");
      }
    }
    String unnamed =
        bouncer.jdbcUrl() + (bouncer.jdbcUrl().contains("?") ? "&" : "?") + "prepareThreshold=0";
    try (com.zaxxer.hikari.HikariDataSource pool = callerPool(unnamed, true);
        TableService service = TableService.builder().dataSource(pool).account(account).build()) {
      String table = ServerFixture.uniqueName("callerds");
      service.createTable(table);
      assertThat(service.getTable(table)).isPresent();
    }
    try (com.zaxxer.hikari.HikariDataSource direct = callerPool(bouncer.directUrl(), true);
        TableService service = TableService.builder().dataSource(direct).account(account).build()) {
      assertThat(service.getTable("absent")).isEmpty();
    }
  }

  private static com.zaxxer.hikari.HikariDataSource callerPool(String url, boolean autoCommit) {
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername(bouncer.user());
    config.setPassword(bouncer.password());
    config.setMaximumPoolSize(4);
    config.setAutoCommit(autoCommit);
    return new com.zaxxer.hikari.HikariDataSource(config);
  }

  @Test
  void contendedIfMatchUpdatesThroughTwoServersLoseNothing() throws Exception {
    String table = ServerFixture.uniqueName("bouncer");
    servers.get(0).sdk().createTable(table);
    for (int e = 0; e < 3; e++) {
      assertThat(
              servers
                  .get(0)
                  .raw()
                  .call("POST", "/" + table)
                  .json("{\"PartitionKey\":\"p\",\"RowKey\":\"c" + e + "\",\"Count\":0}")
                  .send()
                  .status())
          .isEqualTo(201);
    }
    AtomicInteger acknowledged = new AtomicInteger();
    AtomicInteger serverErrors = new AtomicInteger();
    long deadline = System.nanoTime() + 90_000_000_000L;
    runAll(
        CLIENTS,
        client -> {
          RawClient raw = servers.get(client % 2).raw();
          int done = 0;
          while (done < UPDATES_PER_CLIENT && System.nanoTime() < deadline) {
            String path = "/" + table + "(PartitionKey='p',RowKey='c" + (done % 3) + "')";
            RawClient.Reply read =
                raw.call("GET", path).header("Accept", "application/json;odata=nometadata").send();
            if (read.status() >= 500) {
              serverErrors.incrementAndGet();
              continue;
            }
            JsonNode entity = JSON.readTree(read.body());
            int count = entity.get("Count").asInt();
            RawClient.Reply update =
                raw.call("PUT", path)
                    .header("If-Match", read.header("ETag"))
                    .json(
                        "{\"PartitionKey\":\"p\",\"RowKey\":\"c"
                            + (done % 3)
                            + "\",\"Count\":"
                            + (count + 1)
                            + "}")
                    .send();
            if (update.status() == 204) {
              acknowledged.incrementAndGet();
              done++;
            } else if (update.status() >= 500) {
              serverErrors.incrementAndGet();
            } else {
              assertThat(update.status()).isEqualTo(412);
            }
          }
        });
    int total = 0;
    for (var entity : services.get(0).tableClient(table).query(EntityQuery.all()).entities()) {
      total += (Integer) entity.property("Count").orElseThrow().value();
    }
    assertThat(serverErrors.get()).as("5xx answers").isZero();
    assertThat(acknowledged.get()).isEqualTo(CLIENTS * UPDATES_PER_CLIENT);
    assertThat(total).as("the sum of the acknowledged updates").isEqualTo(acknowledged.get());
  }

  @Test
  void hundredEntityBatchesThroughTwoServersAllLand() throws Exception {
    String table = ServerFixture.uniqueName("bouncerbatch");
    servers.get(0).sdk().createTable(table);
    int batchesPerClient = 5;
    runAll(
        4,
        client -> {
          TableClient sdk =
              new TableClientBuilder()
                  .endpoint(servers.get(client % 2).endpoint())
                  .tableName(table)
                  .credential(new AzureNamedKeyCredential(account, TrestleServer.DEV_ACCOUNT_KEY))
                  .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0)))
                  .buildClient();
          for (int b = 0; b < batchesPerClient; b++) {
            List<TableTransactionAction> actions = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
              actions.add(
                  new TableTransactionAction(
                      TableTransactionActionType.UPSERT_REPLACE,
                      new com.azure.data.tables.models.TableEntity("c" + client + "b" + b, "r" + i)
                          .addProperty("V", i)));
            }
            sdk.submitTransaction(actions);
          }
        });
    long stored = 0;
    var page = services.get(1).tableClient(table).query(EntityQuery.all());
    stored += page.entities().size();
    while (page.next().isPresent()) {
      page =
          services
              .get(1)
              .tableClient(table)
              .query(EntityQuery.all().withContinuation(page.next().get()));
      stored += page.entities().size();
    }
    assertThat(stored).isEqualTo(4L * batchesPerClient * 100);
  }

  private interface Client {
    void run(int index) throws Exception;
  }

  private static void runAll(int clients, Client task) throws Exception {
    try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        int index = i;
        futures.add(
            pool.submit(
                () -> {
                  task.run(index);
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    }
  }
}
