package dev.trestle.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableSignedIdentifier;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** When the shared server is emptied, and what emptying takes away. */
class ResetTest {

  @Test
  void byDefaultEachClassStartsEmptyAndItsTestsShareWhatTheyWrite() {
    EngineRun.passes(4, A1Writes.class, A2StartsEmpty.class);
  }

  @Test
  void neverKeepsWhatEarlierClassesWrote() {
    EngineRun.passes(3, A1Writes.class, B1NeverResets.class);
  }

  @Test
  void perTestEmptiesBeforeEveryTestAfterBeforeAll() {
    EngineRun.passes(2, PerTest.class);
  }

  @Test
  void nestedClassesShareTheirOuterClassState() {
    EngineRun.passes(2, Outer.class);
  }

  @Test
  void resetOnTheHandleDropsTablesPoliciesAndServiceProperties() {
    EngineRun.passes(1, ResetByHand.class);
  }

  private static List<String> tableNames(TableServiceClient service) {
    return service.listTables().stream().map(TableItem::getName).toList();
  }

  @TrestleTest
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class A1Writes {
    @Test
    @Order(1)
    void writes(TableServiceClient service) {
      assertThat(tableNames(service)).isEmpty();
      service.createTable("orders").createEntity(new TableEntity("p", "r"));
    }

    @Test
    @Order(2)
    void theNextTestOfTheClassFindsIt(TableServiceClient service) {
      assertThat(tableNames(service)).containsExactly("orders");
    }
  }

  @TrestleTest
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class A2StartsEmpty {
    static boolean seeded;

    @BeforeAll
    static void seed(TableServiceClient service) {
      seeded = true;
      service.createTable("seeded");
    }

    @Test
    @Order(1)
    void seesOnlyItsOwnSeed(TableServiceClient service) {
      assertThat(seeded).isTrue();
      assertThat(tableNames(service)).containsExactly("seeded");
    }

    @Test
    @Order(2)
    void canCreateWhatAnEarlierClassCreated(TableServiceClient service) {
      service.createTable("orders");
    }
  }

  @TrestleTest(reset = Reset.NEVER)
  static class B1NeverResets {
    @Test
    void findsTheEarlierClassTable(TableServiceClient service) {
      assertThat(tableNames(service)).containsExactly("orders");
      assertThat(service.getTableClient("orders").getEntity("p", "r")).isNotNull();
    }
  }

  @TrestleTest(reset = Reset.PER_TEST)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class PerTest {
    @BeforeAll
    static void seed(TableServiceClient service) {
      service.createTable("fromBeforeAll");
    }

    @Test
    @Order(1)
    void first(TableServiceClient service) {
      assertThat(tableNames(service)).isEmpty();
      service.createTable("first");
    }

    @Test
    @Order(2)
    void second(TableServiceClient service) {
      assertThat(tableNames(service)).isEmpty();
    }
  }

  @TrestleTest
  static class Outer {
    @BeforeAll
    static void seed(TableServiceClient service) {
      service.createTable("outer");
    }

    @Test
    void outerTest(TableServiceClient service) {
      assertThat(tableNames(service)).contains("outer");
    }

    @Nested
    class Inner {
      @Test
      void innerTestSeesTheOuterSeed(TableServiceClient service) {
        assertThat(tableNames(service)).contains("outer");
      }
    }
  }

  @TrestleTest
  static class ResetByHand {
    @Test
    void reset(Trestle trestle, TableServiceClient service) throws Exception {
      service.createTable("one").createEntity(new TableEntity("p", "r"));
      service.createTable("two");
      service.getTableClient("two").setAccessPolicies(List.of(new TableSignedIdentifier("policy")));
      service.setProperties(
          new TableServiceProperties()
              .setCorsRules(
                  List.of(
                      new TableServiceCorsRule()
                          .setAllowedOrigins("http://a.example")
                          .setAllowedMethods("GET")
                          .setAllowedHeaders("*")
                          .setExposedHeaders("*")
                          .setMaxAgeInSeconds(60))));
      assertThat(preflightStatus(trestle)).isEqualTo(200);

      trestle.reset();

      assertThat(tableNames(service)).isEmpty();
      assertThat(service.getProperties().getCorsRules()).isNullOrEmpty();
      assertThat(preflightStatus(trestle)).isEqualTo(403);
      service.createTable("two");
      assertThat(service.getTableClient("two").getAccessPolicies().getIdentifiers())
          .isNullOrEmpty();
      assertThat(service.getTableClient("two").listEntities()).isEmpty();
      trestle.reset(); // again, with nothing to do
      assertThat(tableNames(service)).isEmpty();
    }

    private static int preflightStatus(Trestle trestle) throws Exception {
      try (HttpClient http = HttpClient.newHttpClient()) {
        HttpRequest preflight =
            HttpRequest.newBuilder(URI.create(trestle.endpoint() + "/Tables"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://a.example")
                .header("Access-Control-Request-Method", "GET")
                .build();
        return http.send(preflight, HttpResponse.BodyHandlers.discarding()).statusCode();
      }
    }
  }
}
