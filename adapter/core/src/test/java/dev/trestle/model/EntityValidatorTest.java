package dev.trestle.model;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EntityValidatorTest {

  private static TableEntity.Builder entity() {
    return TableEntity.builder("p", "r");
  }

  @Nested
  class TableNames {
    @ParameterizedTest
    @ValueSource(strings = {"abc", "ABC", "a12", "MyTable2024", "Tables1", "tablesX"})
    void validNamesPass(String name) {
      assertThatCode(() -> EntityValidator.validateTableName(name)).doesNotThrowAnyException();
    }

    @Test
    void lengthBoundaries() {
      assertThatCode(() -> EntityValidator.validateTableName("a".repeat(3)))
          .doesNotThrowAnyException();
      assertThatCode(() -> EntityValidator.validateTableName("a".repeat(63)))
          .doesNotThrowAnyException();
      assertFails(TableErrorCode.OUT_OF_RANGE_INPUT, () -> EntityValidator.validateTableName("ab"));
      assertFails(
          TableErrorCode.OUT_OF_RANGE_INPUT,
          () -> EntityValidator.validateTableName("a".repeat(64)));
      assertFails(TableErrorCode.OUT_OF_RANGE_INPUT, () -> EntityValidator.validateTableName(""));
      assertFails(TableErrorCode.OUT_OF_RANGE_INPUT, () -> EntityValidator.validateTableName(null));
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "1abc",
          "ab-c",
          "ab_c",
          "ab c",
          "$Metrics",
          "ab.c",
          "t\u00e4ble",
          "tables",
          "TABLES",
          "Tables"
        })
    void invalidCharactersAndReservedNames(String name) {
      TableException e =
          assertFails(
              TableErrorCode.INVALID_RESOURCE_NAME, () -> EntityValidator.validateTableName(name));
      assertThat(e.getMessage())
          .isEqualTo("The specifed resource name contains invalid characters.");
    }
  }

  @Nested
  class Keys {
    @ParameterizedTest
    @ValueSource(
        strings = {
          "",
          "a b.c-d_e~f!g$h&i(j)k*l+m,n;o=p@q[r]s'u\"v%w",
          "Z\u00fcrich \u65e5\u672c",
          "\ud83d\ude00",
          "\u00a0"
        })
    void allowedKeys(String key) {
      assertThatCode(() -> EntityValidator.validateKey("PartitionKey", key))
          .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(
        chars = {
          '/', '\\', '#', '?', '\u0000', '\u0001', '\n', '\u001f', '\u007f', '\u0080', '\u009f'
        })
    void forbiddenCharactersAreOutOfRange(char c) {
      TableException e =
          assertFails(
              TableErrorCode.OUT_OF_RANGE_INPUT,
              () -> EntityValidator.validateKey("RowKey", "a" + c + "b"));
      assertThat(e.getMessage())
          .startsWith("The 'RowKey' parameter of value ")
          .endsWith(" is out of range.");
    }

    @Test
    void neighboursOfForbiddenRangesAreAllowed() {
      assertThatCode(() -> EntityValidator.validateKey("RowKey", "\u0020\u007e\u00a0"))
          .doesNotThrowAnyException();
    }

    @Test
    void keyOf512CodeUnitsPassesAnd513IsTooLarge() {
      assertThatCode(() -> EntityValidator.validateKey("PartitionKey", "k".repeat(512)))
          .doesNotThrowAnyException();
      assertFails(
          TableErrorCode.KEY_VALUE_TOO_LARGE,
          () -> EntityValidator.validateKey("PartitionKey", "k".repeat(513)));
      // a supplementary character is two UTF-16 code units
      assertFails(
          TableErrorCode.KEY_VALUE_TOO_LARGE,
          () -> EntityValidator.validateKey("RowKey", "\ud83d\ude00".repeat(257)));
    }

    @Test
    void missingKeyNeedsAValue() {
      assertFails(
          TableErrorCode.PROPERTIES_NEED_VALUE,
          () -> EntityValidator.validateKey("PartitionKey", null));
    }

    @Test
    void validateForWriteChecksBothKeys() {
      assertFails(
          TableErrorCode.OUT_OF_RANGE_INPUT,
          () -> EntityValidator.validateForWrite(TableEntity.builder("a#", "r").build()));
      assertFails(
          TableErrorCode.KEY_VALUE_TOO_LARGE,
          () ->
              EntityValidator.validateForWrite(TableEntity.builder("p", "r".repeat(513)).build()));
    }
  }

  @Nested
  class Properties {
    private TableEntity withProperties(int count) {
      TableEntity.Builder b = entity();
      for (int i = 0; i < count; i++) {
        b.put("Prop" + i, i);
      }
      return b.build();
    }

    @Test
    void twoHundredFiftyTwoUserPropertiesPassAndOneMoreIsTooMany() {
      assertThatCode(() -> EntityValidator.validateForWrite(withProperties(252)))
          .doesNotThrowAnyException();
      assertFails(
          TableErrorCode.TOO_MANY_PROPERTIES,
          () -> EntityValidator.validateForWrite(withProperties(253)));
    }

    @Test
    void propertyNameRulesApplyOnWrite() {
      assertFails(
          TableErrorCode.PROPERTY_NAME_INVALID,
          () -> EntityValidator.validateForWrite(entity().put("9lives", 1).build()));
      assertFails(
          TableErrorCode.PROPERTY_NAME_TOO_LONG,
          () -> EntityValidator.validateForWrite(entity().put("N".repeat(256), 1).build()));
    }

    @Test
    void stringOf32KCodeUnitsPassesAndOneMoreIsTooLarge() {
      assertThatCode(
              () ->
                  EntityValidator.validateForWrite(
                      entity().put("S", "x".repeat(32 * 1024)).build()))
          .doesNotThrowAnyException();
      assertFails(
          TableErrorCode.PROPERTY_VALUE_TOO_LARGE,
          () ->
              EntityValidator.validateForWrite(
                  entity().put("S", "x".repeat(32 * 1024 + 1)).build()));
    }

    @Test
    void binaryOf64KiBPassesAndOneMoreByteIsTooLarge() {
      assertThatCode(
              () ->
                  EntityValidator.validateForWrite(entity().put("B", new byte[64 * 1024]).build()))
          .doesNotThrowAnyException();
      assertFails(
          TableErrorCode.PROPERTY_VALUE_TOO_LARGE,
          () ->
              EntityValidator.validateForWrite(entity().put("B", new byte[64 * 1024 + 1]).build()));
    }

    @Test
    void dateTimeMustLieBetween1601And9999() {
      assertThatCode(
              () ->
                  EntityValidator.validateForWrite(
                      entity()
                          .put("Min", TableLimits.MIN_DATE_TIME)
                          .put("Max", TableLimits.MAX_DATE_TIME)
                          .build()))
          .doesNotThrowAnyException();
      assertFails(
          TableErrorCode.OUT_OF_RANGE_INPUT,
          () ->
              EntityValidator.validateForWrite(
                  entity().put("D", TableLimits.MIN_DATE_TIME.minusNanos(100)).build()));
      assertFails(
          TableErrorCode.OUT_OF_RANGE_INPUT,
          () ->
              EntityValidator.validateForWrite(
                  entity().put("D", Instant.parse("+10000-01-01T00:00:00Z")).build()));
    }

    @Test
    void otherTypesHaveNoSizeLimitOfTheirOwn() {
      TableEntity e =
          entity()
              .put("I", Integer.MIN_VALUE)
              .put("L", Long.MAX_VALUE)
              .put("D", Double.NaN)
              .put("T", true)
              .put("G", java.util.UUID.randomUUID())
              .put("E", "")
              .put("Z", new byte[0])
              .build();
      assertThatCode(() -> EntityValidator.validateForWrite(e)).doesNotThrowAnyException();
    }
  }

  @Nested
  class EntitySizeLimit {
    // 4 + 2*(1+1) for the keys, then 8 + 2*len(name) + 4 + 2*len(value) per string property.
    private TableEntity ofSize(long target) {
      TableEntity.Builder b = entity();
      long size = 8;
      int i = 0;
      while (true) {
        String name = "S" + i++;
        long fixed = 8 + 2L * name.length() + 4;
        long remaining = target - size - fixed;
        int chars = (int) Math.min(TableLimits.MAX_STRING_LENGTH, remaining / 2);
        b.put(name, "z".repeat(chars));
        size += fixed + 2L * chars;
        if (chars < TableLimits.MAX_STRING_LENGTH) {
          break;
        }
      }
      TableEntity e = b.build();
      assertThat(EntitySize.of(e)).isEqualTo(target);
      return e;
    }

    @Test
    void exactlyOneMebibytePassesAndTwoBytesMoreIsTooLarge() {
      assertThatCode(() -> EntityValidator.validateForWrite(ofSize(1024 * 1024)))
          .doesNotThrowAnyException();
      assertFails(
          TableErrorCode.ENTITY_TOO_LARGE,
          () -> EntityValidator.validateForWrite(ofSize(1024 * 1024 + 2)));
    }

    @Test
    void oneByteOverTheLimitIsTooLarge() {
      // a Boolean named "b" adds 8 + 2 + 1 = 11 bytes
      TableEntity e = ofSize(1024 * 1024 - 10).toBuilder().put("b", true).build();
      assertThat(EntitySize.of(e)).isEqualTo(1024 * 1024 + 1);
      assertFails(TableErrorCode.ENTITY_TOO_LARGE, () -> EntityValidator.validateForWrite(e));
    }

    @Test
    void conformanceFixtureOf17UnicodeStringsIsTooLarge() {
      TableEntity.Builder b = entity();
      for (int i = 0; i < 17; i++) {
        b.put("S" + i, "\u00e9".repeat(32 * 1024));
      }
      assertFails(
          TableErrorCode.ENTITY_TOO_LARGE, () -> EntityValidator.validateForWrite(b.build()));
    }
  }
}
