package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.AccessPolicy;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableInfo;
import dev.trestle.TablePage;
import dev.trestle.TableQuery;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

class TableCatalogTest {

  @DatabaseTest
  void createKeepsTheCasingAndTheCreationTime(TableService service) {
    Instant before = Instant.now().minusSeconds(1);
    TableInfo created = service.createTable("MyTable");
    assertThat(created.name()).isEqualTo("MyTable");
    assertThat(created.createdAt()).isAfter(before);
    assertThat(service.getTable("mytable")).contains(created);
  }

  @DatabaseTest
  void namesAreUniqueCaseInsensitively(TableService service) {
    service.createTable("MyTable");
    assertFails(TableErrorCode.TABLE_ALREADY_EXISTS, () -> service.createTable("MYTABLE"));
    assertThat(service.createTableIfNotExists("mytable").name()).isEqualTo("MyTable");
  }

  @DatabaseTest
  void deleteRemovesTheTableAndItsEntities(TableService service) {
    service.createTable("gone");
    service.tableClient("gone").insert(TableEntity.builder("p", "r").put("v", 1).build());
    service.setAccessPolicies("gone", List.of(new AccessPolicy("id", null, null, "r")));
    service.deleteTable("GONE");
    assertThat(service.getTable("gone")).isEmpty();
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> service.deleteTable("gone"));
    service.createTable("gone");
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> service.tableClient("gone").get("p", "r"));
    assertThat(service.getAccessPolicies("gone")).isEmpty();
  }

  /**
   * Another server (a service of its own on the same database) deleting a table, and creating it
   * again under the same name, is seen by the next point read, whatever this server read before.
   */
  @DatabaseTest
  void aPointReadSeesATableDeletedAndCreatedAgainByAnotherServer(TestDatabase database) {
    String account = TestDatabase.newAccount();
    try (TableService reader = database.newService(account);
        TableService other = database.newService(account)) {
      other.createTable("again");
      other.tableClient("again").insert(TableEntity.builder("p", "r").put("v", 1).build());
      assertThat(reader.tableClient("again").get("p", "r").getInt32("v")).isEqualTo(1);

      other.deleteTable("again");
      other.createTable("Again");
      assertFails(
          TableErrorCode.RESOURCE_NOT_FOUND, () -> reader.tableClient("again").get("p", "r"));
      other.tableClient("Again").insert(TableEntity.builder("p", "r").put("v", 2).build());
      assertThat(reader.tableClient("again").get("p", "r").getInt32("v")).isEqualTo(2);

      other.deleteTable("again");
      assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> reader.tableClient("again").get("p", "r"));
      other.createTable("again");
      other.tableClient("again").insert(TableEntity.builder("p", "r").put("v", 3).build());
      assertThat(reader.tableClient("again").get("p", "r").getInt32("v")).isEqualTo(3);
    }
  }

  @DatabaseTest
  void queryTablesPagesInNameOrder(TableService service) {
    List<String> names = List.of("alpha", "Beta", "gamma", "Delta", "epsilon");
    names.forEach(service::createTable);
    List<String> seen = new ArrayList<>();
    TableQuery query = new TableQuery(null, 2, null);
    int pages = 0;
    while (true) {
      TablePage page = service.queryTables(query);
      pages++;
      page.tables().forEach(t -> seen.add(t.name()));
      if (page.nextTableName().isEmpty()) {
        break;
      }
      query = new TableQuery(null, 2, page.nextTableName().get());
    }
    assertThat(seen).containsExactly("Beta", "Delta", "alpha", "epsilon", "gamma");
    assertThat(pages).isEqualTo(3);
  }

  @DatabaseTest
  void topOutsideZeroToAThousandIsRejectedAndZeroIsAnEmptyPage(TableService service) {
    service.createTable("alpha");
    TablePage none = service.queryTables(new TableQuery(null, 0, null));
    assertThat(none.tables()).isEmpty();
    assertThat(none.nextTableName()).isEmpty();
    assertFails(
        TableErrorCode.OUT_OF_RANGE_QUERY_PARAMETER_VALUE,
        () -> service.queryTables(new TableQuery(null, -1, null)));
    assertFails(
        TableErrorCode.OUT_OF_RANGE_QUERY_PARAMETER_VALUE,
        () -> service.queryTables(new TableQuery(null, 1001, null)));
  }

  @DatabaseTest
  void accessPoliciesRoundTripAndAreLimitedToFive(TableService service) {
    service.createTable("acl");
    List<AccessPolicy> policies =
        List.of(
            new AccessPolicy(
                "full",
                Instant.parse("2021-09-21T08:49:37Z"),
                Instant.parse("2021-09-22T08:49:37Z"),
                "raud"),
            new AccessPolicy("idonly", null, null, null));
    service.setAccessPolicies("acl", policies);
    assertThat(service.getAccessPolicies("ACL")).isEqualTo(policies);

    List<AccessPolicy> six = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      six.add(new AccessPolicy("p" + i, null, null, "r"));
    }
    assertFails(TableErrorCode.INVALID_XML_DOCUMENT, () -> service.setAccessPolicies("acl", six));
    assertThat(service.getAccessPolicies("acl")).isEqualTo(policies);

    service.setAccessPolicies("acl", List.of());
    assertThat(service.getAccessPolicies("acl")).isEmpty();
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> service.getAccessPolicies("nope"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> service.setAccessPolicies("nope", List.of()));
  }

  @DatabaseTest
  void servicePropertiesAreStoredPerAccount(TableService service) {
    assertThat(service.getServiceProperties()).isEmpty();
    service.setServiceProperties("<StorageServiceProperties>1</StorageServiceProperties>");
    service.setServiceProperties("<StorageServiceProperties>2</StorageServiceProperties>");
    assertThat(service.getServiceProperties())
        .contains("<StorageServiceProperties>2</StorageServiceProperties>");
    assertThat(
            service
                .forAccount(dev.trestle.testing.TestDatabase.newAccount())
                .getServiceProperties())
        .isEmpty();
  }
}
