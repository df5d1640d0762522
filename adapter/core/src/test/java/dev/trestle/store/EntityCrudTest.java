package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

class EntityCrudTest {

  private static TableClient table(TableService service) {
    service.createTable("people");
    return service.tableClient("people");
  }

  private static TableEntity person(String rowKey, String name, int age) {
    return TableEntity.builder("p", rowKey).put("Name", name).put("Age", age).build();
  }

  @DatabaseTest
  void insertReturnsTheStoredEntityAndGetReadsItBack(TableService service) {
    TableClient people = table(service);
    TableEntity stored = people.insert(person("1", "Ada", 36));

    assertThat(stored.etag())
        .matches("W/\"datetime'\\d{4}-\\d\\d-\\d\\dT\\d\\d%3A\\d\\d%3A\\d\\d\\.\\d{7}Z'\"");
    assertThat(stored.timestamp()).isNotNull();
    assertThat(stored.properties())
        .containsExactly(
            Map.entry("Name", PropertyValue.of("Ada")), Map.entry("Age", PropertyValue.of(36)));
    assertThat(people.get("p", "1")).isEqualTo(stored);
  }

  @DatabaseTest
  void etagIsDerivedFromTheTimestamp(TableService service) {
    TableEntity stored = table(service).insert(person("1", "Ada", 36));
    String iso = stored.timestamp().toString();
    assertThat(stored.etag()).startsWith("W/\"datetime'" + iso.substring(0, 13) + "%3A");
  }

  @DatabaseTest
  void anEntityDeletedAndInsertedAgainNeverGetsAnEarlierVersionsETag(TableService service) {
    TableClient people = table(service);
    Set<String> etags = new HashSet<>();
    Instant last = Instant.MIN;
    for (int i = 0; i < 200; i++) {
      TableEntity inserted = people.insert(person("1", "Ada", i));
      TableEntity merged =
          people.merge(TableEntity.builder("p", "1").put("N", i).build(), inserted.etag());
      people.delete("p", "1", "*");
      assertThat(etags.add(inserted.etag())).as("insert %d reused an ETag", i).isTrue();
      assertThat(etags.add(merged.etag())).as("merge %d reused an ETag", i).isTrue();
      assertThat(inserted.timestamp()).isAfter(last);
      assertThat(merged.timestamp()).isAfter(inserted.timestamp());
      last = merged.timestamp();
    }
  }

  @DatabaseTest
  void aClientTimestampIsIgnored(TableService service) {
    Instant past = Instant.parse("2001-01-01T00:00:00Z");
    TableEntity stored =
        table(service).insert(person("1", "Ada", 36).toBuilder().timestamp(past).etag("x").build());
    assertThat(stored.timestamp()).isAfter(past);
    assertThat(stored.etag()).isNotEqualTo("x");
  }

  @DatabaseTest
  void insertingAnExistingEntityFails(TableService service) {
    TableClient people = table(service);
    people.insert(person("1", "Ada", 36));
    assertFails(TableErrorCode.ENTITY_ALREADY_EXISTS, () -> people.insert(person("1", "Bob", 40)));
    assertThat(people.get("p", "1").property("Name")).contains(PropertyValue.of("Ada"));
  }

  @DatabaseTest
  void readingAMissingEntityIsResourceNotFound(TableService service) {
    TableClient people = table(service);
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> people.get("p", "nobody"));
  }

  @DatabaseTest
  void everyOperationOnAMissingTableIsTableNotFound(TableService service) {
    TableClient ghost = service.tableClient("ghost");
    TableEntity entity = person("1", "Ada", 36);
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> ghost.get("p", "1"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> ghost.insert(entity));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> ghost.update(entity, "*"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> ghost.merge(entity, "*"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> ghost.upsertReplace(entity));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> ghost.upsertMerge(entity));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> ghost.delete("p", "1", "*"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> ghost.query(dev.trestle.EntityQuery.all()));
  }

  @DatabaseTest
  void tableNamesAreMatchedCaseInsensitively(TableService service) {
    service.createTable("People");
    service.tableClient("PEOPLE").insert(person("1", "Ada", 36));
    assertThat(service.tableClient("people").get("p", "1").property("Name"))
        .contains(PropertyValue.of("Ada"));
  }

  @DatabaseTest
  void updateReplacesAllProperties(TableService service) {
    TableClient people = table(service);
    TableEntity first = people.insert(person("1", "Ada", 36));
    TableEntity second =
        people.update(TableEntity.builder("p", "1").put("City", "London").build(), first.etag());

    assertThat(second.properties()).containsExactly(Map.entry("City", PropertyValue.of("London")));
    assertThat(people.get("p", "1")).isEqualTo(second);
    assertThat(second.etag()).isNotEqualTo(first.etag());
  }

  @DatabaseTest
  void mergeAddsAndOverwritesAndKeepsTheRest(TableService service) {
    TableClient people = table(service);
    people.insert(person("1", "Ada", 36));
    TableEntity merged =
        people.merge(
            TableEntity.builder("p", "1").put("Age", 37L).put("City", "London").build(), "*");

    assertThat(merged.properties())
        .containsExactly(
            Map.entry("Name", PropertyValue.of("Ada")),
            Map.entry("Age", PropertyValue.of(37L)),
            Map.entry("City", PropertyValue.of("London")));
    assertThat(people.get("p", "1")).isEqualTo(merged);
  }

  @DatabaseTest
  void aNullIfMatchMeansAnyVersion(TableService service) {
    TableClient people = table(service);
    people.insert(person("1", "Ada", 36));
    assertThat(people.update(person("1", "Bea", 1), null).property("Name"))
        .contains(PropertyValue.of("Bea"));
    assertThat(people.merge(person("1", "Cy", 2), null).property("Name"))
        .contains(PropertyValue.of("Cy"));
    people.delete("p", "1", null);
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> people.get("p", "1"));
  }

  @DatabaseTest
  void aStaleETagFailsEveryConditionalWrite(TableService service) {
    TableClient people = table(service);
    TableEntity first = people.insert(person("1", "Ada", 36));
    people.update(person("1", "Bea", 1), "*");
    assertFails(
        TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
        () -> people.update(person("1", "X", 0), first.etag()));
    assertFails(
        TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
        () -> people.merge(person("1", "X", 0), first.etag()));
    assertFails(
        TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED, () -> people.delete("p", "1", first.etag()));
    assertThat(people.get("p", "1").property("Name")).contains(PropertyValue.of("Bea"));
  }

  @DatabaseTest
  void conditionalWritesOfAMissingEntityAreResourceNotFound(TableService service) {
    TableClient people = table(service);
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> people.update(person("1", "X", 0), "*"));
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> people.merge(person("1", "X", 0), "*"));
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> people.delete("p", "1", "*"));
    assertFails(
        TableErrorCode.RESOURCE_NOT_FOUND,
        () -> people.delete("p", "1", "W/\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\""));
  }

  @DatabaseTest
  void aMalformedETagIsInvalidInput(TableService service) {
    TableClient people = table(service);
    people.insert(person("1", "Ada", 36));
    assertFails(TableErrorCode.INVALID_INPUT, () -> people.update(person("1", "X", 0), "\"abc\""));
    assertFails(TableErrorCode.INVALID_INPUT, () -> people.merge(person("1", "X", 0), "abc"));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> people.delete("p", "1", "datetime'2015-01-01T23%3A14%3A33.498Z'"));
    assertFails(TableErrorCode.INVALID_INPUT, () -> people.delete("p", "1", "\""));
  }

  @DatabaseTest
  void aForeignWeakETagIsWellFormedButMatchesNoVersion(TableService service) {
    TableClient people = table(service);
    TableEntity stored = people.insert(person("1", "Ada", 36));
    for (String etag :
        new String[] {"W/\"wrong\"", "w/\"wrong\"", "W/\"datetime'yesterday'\"", "W/\"\""}) {
      assertFails(
          TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
          () -> people.update(person("1", "X", 0), etag));
      assertFails(
          TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
          () -> people.merge(person("1", "X", 0), etag));
      assertFails(
          TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED, () -> people.delete("p", "1", etag));
    }
    assertThat(people.get("p", "1")).isEqualTo(stored);
  }

  @DatabaseTest
  void upsertsCreateMissingEntities(TableService service) {
    TableClient people = table(service);
    TableEntity replaced = people.upsertReplace(person("1", "Ada", 36));
    TableEntity merged = people.upsertMerge(person("2", "Bob", 40));
    assertThat(people.get("p", "1")).isEqualTo(replaced);
    assertThat(people.get("p", "2")).isEqualTo(merged);
  }

  @DatabaseTest
  void upsertReplaceDropsUnsentPropertiesAndUpsertMergeKeepsThem(TableService service) {
    TableClient people = table(service);
    people.insert(person("1", "Ada", 36));
    people.insert(person("2", "Bob", 40));
    people.upsertReplace(TableEntity.builder("p", "1").put("City", "Paris").build());
    people.upsertMerge(TableEntity.builder("p", "2").put("City", "Rome").build());
    assertThat(people.get("p", "1").properties()).containsOnlyKeys("City");
    assertThat(people.get("p", "2").properties()).containsOnlyKeys("Name", "Age", "City");
  }

  @DatabaseTest
  void deleteWithTheCurrentETagRemovesTheEntity(TableService service) {
    TableClient people = table(service);
    TableEntity stored = people.insert(person("1", "Ada", 36));
    people.delete("p", "1", stored.etag());
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> people.get("p", "1"));
  }

  @DatabaseTest
  void timestampStrictlyIncreasesOnEveryWriteEvenWithinOneTick(TableService service) {
    TableClient people = table(service);
    TableEntity previous = people.insert(person("1", "Ada", 0));
    for (int i = 1; i <= 50; i++) {
      TableEntity next =
          i % 2 == 0
              ? people.update(person("1", "Ada", i), previous.etag())
              : people.merge(person("1", "Ada", i), "*");
      assertThat(next.timestamp()).isAfter(previous.timestamp());
      assertThat(next.etag()).isNotEqualTo(previous.etag());
      previous = next;
    }
  }

  @DatabaseTest
  void getWithSelectReturnsOnlyTheSelectedPropertiesThatExist(TableService service) {
    TableClient people = table(service);
    people.insert(person("1", "Ada", 36));
    TableEntity selected = people.get("p", "1", List.of("Age", "Missing"));
    assertThat(selected.properties()).containsExactly(Map.entry("Age", PropertyValue.of(36)));
    assertThat(selected.etag()).isNotNull();
  }

  @DatabaseTest
  void anEntityWithoutPropertiesAndEmptyKeysIsLegal(TableService service) {
    TableClient people = table(service);
    TableEntity stored = people.insert(TableEntity.builder("", "").build());
    assertThat(people.get("", "")).isEqualTo(stored);
    assertThat(stored.properties()).isEmpty();
  }

  @DatabaseTest
  void accountsDoNotSeeEachOthersTables(TableService service) {
    table(service).insert(person("1", "Ada", 36));
    TableService other = service.forAccount(dev.trestle.testing.TestDatabase.newAccount());
    assertThat(other.getTable("people")).isEmpty();
    other.createTable("people");
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> other.tableClient("people").get("p", "1"));
  }
}
