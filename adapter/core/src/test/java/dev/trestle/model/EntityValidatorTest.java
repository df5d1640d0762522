package dev.trestle.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EntityValidatorTest {

  private static TableErrorCode codeOf(Runnable action) {
    TableException e = catchThrowableOfType(TableException.class, action::run);
    assertThat(e).as("expected a TableException").isNotNull();
    return e.errorCode();
  }

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
      assertThatCode(() -> EntityValidator.validateTableName("a".repeat(3))).doesNotThrowAnyException();
      assertThatCode(() -> EntityValidator.validateTableName("a".repeat(63))).doesNotThrowAnyException();
      assertThat(codeOf(() -> EntityValidator.validateTableName("ab"))).isEqualTo(TableErrorCode.OUT_OF_RANGE_INPUT);
      assertThat(codeOf(() -> EntityValidator.validateTableName("a".repeat(64)))).isEqualTo(TableErrorCode.OUT_OF_RANGE_INPUT);
      assertThat(codeOf(() -> EntityValidator.validateTableName(""))).isEqualTo(TableErrorCode.OUT_OF_RANGE_INPUT);
      assertThat(codeOf(() -> EntityValidator.validateTableName(null))).isEqualTo(TableErrorCode.OUT_OF_RANGE_INPUT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1abc", "ab-c", "ab_c", "ab c", "$Metrics", "ab.c", "t\u00e4ble", "tables", "TABLES", "Tables"})
    void invalidCharactersAndReservedNames(String name) {
      TableException e = catchThrowableOfType(TableException.class, () -> EntityValidator.validateTableName(name));
      assertThat(e.errorCode()).isEqualTo(TableErrorCode.INVALID_RESOURCE_NAME);
      assertThat(e.getMessage()).isEqualTo("The specifed resource name contains invalid characters.");
    }
  }

  @Nested
  class Keys {
    @ParameterizedTest
    @ValueSource(strings = {"", "a b.c-d_e~f!g$h&i(j)k*l+m,n;o=p@q[r]s'u\"v%w", "Z\u00fcrich \u65e5\u672c", "\ud83d\ude00", "\u00a0"})
    void allowedKeys(String key) {
      assertThatCode(() -> EntityValidator.validateKey("PartitionKey", key)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(chars = {'/', '\\', '#', '?', '\u0000', '\u0001', '\n', '\u001f', '\u007f', '\u0080', '\u009f'})
    void forbiddenCharactersAreOutOfRange(char c) {
      TableException e = catchThrowableOfType(TableException.class, () -> EntityValidator.validateKey("RowKey", "a" + c + "b"));
      assertThat(e.errorCode()).isEqualTo(TableErrorCode.OUT_OF_RANGE_INPUT);
      assertThat(e.getMessage()).startsWith("The 'RowKey' parameter of value ").endsWith(" is out of range.");
    }

    @Test
    void neighboursOfForbiddenRangesAreAllowed() {
      assertThatCode(() -> EntityValidator.validateKey("RowKey", "\u0020\u007e\u00a0")).doesNotThrowAnyException();
    }

    @Test
    void keyOf512CodeUnitsPassesAnd513IsTooLarge() {
      assertThatCode(() -> EntityValidator.validateKey("PartitionKey", "k".repeat(512))).doesNotThrowAnyException();
      assertThat(codeOf(() -> EntityValidator.validateKey("PartitionKey", "k".repeat(513))))
          .isEqualTo(TableErrorCode.KEY_VALUE_TOO_LARGE);
      // a supplementary character is two UTF-16 code units
      assertThat(codeOf(() -> EntityValidator.validateKey("RowKey", "\ud83d\ude00".repeat(257))))
          .isEqualTo(TableErrorCode.KEY_VALUE_TOO_LARGE);
    }

    @Test
    void missingKeyNeedsAValue() {
      assertThat(codeOf(() -> EntityValidator.validateKey("PartitionKey", null))).isEqualTo(TableErrorCode.PROPERTIES_NEED_VALUE);
    }

    @Test
    void validateForWriteChecksBothKeys() {
      assertThat(codeOf(() -> EntityValidator.validateForWrite(TableEntity.builder("a#", "r").build())))
          .isEqualTo(TableErrorCode.OUT_OF_RANGE_INPUT);
      assertThat(codeOf(() -> EntityValidator.validateForWrite(TableEntity.builder("p", "r".repeat(513)).build())))
          .isEqualTo(TableErrorCode.KEY_VALUE_TOO_LARGE);
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
      assertThatCode(() -> EntityValidator.validateForWrite(withProperties(252))).doesNotThrowAnyException();
      assertThat(codeOf(() -> EntityValidator.validateForWrite(withProperties(253)))).isEqualTo(TableErrorCode.TOO_MANY_PROPERTIES);
    }

    @Test
    void propertyNameRulesApplyOnWrite() {
      assertThat(codeOf(() -> EntityValidator.validateForWrite(entity().put("9lives", 1).build())))
          .isEqualTo(TableErrorCode.PROPERTY_NAME_INVALID);
      assertThat(codeOf(() -> EntityValidator.validateForWrite(entity().put("N".repeat(256), 1).build())))
          .isEqualTo(TableErrorCode.PROPERTY_NAME_TOO_LONG);
    }

    @Test
    void stringOf32KCodeUnitsPassesAndOneMoreIsTooLarge() {
      assertThatCode(() -> EntityValidator.validateForWrite(entity().put("S", "x".repeat(32 * 1024)).build()))
          .doesNotThrowAnyException();
      assertThat(codeOf(() -> EntityValidator.validateForWrite(entity().put("S", "x".repeat(32 * 1024 + 1)).build())))
          .isEqualTo(TableErrorCode.PROPERTY_VALUE_TOO_LARGE);
    }

    @Test
    void binaryOf64KiBPassesAndOneMoreByteIsTooLarge() {
      assertThatCode(() -> EntityValidator.validateForWrite(entity().put("B", new byte[64 * 1024]).build()))
          .doesNotThrowAnyException();
      assertThat(codeOf(() -> EntityValidator.validateForWrite(entity().put("B", new byte[64 * 1024 + 1]).build())))
          .isEqualTo(TableErrorCode.PROPERTY_VALUE_TOO_LARGE);
    }

    @Test
    void dateTimeMustLieBetween1601And9999() {
      assertThatCode(() -> EntityValidator.validateForWrite(entity()
          .put("Min", TableLimits.MIN_DATE_TIME).put("Max", TableLimits.MAX_DATE_TIME).build())).doesNotThrowAnyException();
      assertThat(codeOf(() -> EntityValidator.validateForWrite(entity()
          .put("D", TableLimits.MIN_DATE_TIME.minusNanos(100)).build()))).isEqualTo(TableErrorCode.OUT_OF_RANGE_INPUT);
      assertThat(codeOf(() -> EntityValidator.validateForWrite(entity()
          .put("D", Instant.parse("+10000-01-01T00:00:00Z")).build()))).isEqualTo(TableErrorCode.OUT_OF_RANGE_INPUT);
    }

    @Test
    void otherTypesHaveNoSizeLimitOfTheirOwn() {
      TableEntity e = entity().put("I", Integer.MIN_VALUE).put("L", Long.MAX_VALUE).put("D", Double.NaN)
          .put("T", true).put("G", java.util.UUID.randomUUID()).put("E", "").put("Z", new byte[0]).build();
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
      assertThatCode(() -> EntityValidator.validateForWrite(ofSize(1024 * 1024))).doesNotThrowAnyException();
      assertThat(codeOf(() -> EntityValidator.validateForWrite(ofSize(1024 * 1024 + 2)))).isEqualTo(TableErrorCode.ENTITY_TOO_LARGE);
    }

    @Test
    void oneByteOverTheLimitIsTooLarge() {
      // a Boolean named "b" adds 8 + 2 + 1 = 11 bytes
      TableEntity e = ofSize(1024 * 1024 - 10).toBuilder().put("b", true).build();
      assertThat(EntitySize.of(e)).isEqualTo(1024 * 1024 + 1);
      assertThat(codeOf(() -> EntityValidator.validateForWrite(e))).isEqualTo(TableErrorCode.ENTITY_TOO_LARGE);
    }

    @Test
    void conformanceFixtureOf17UnicodeStringsIsTooLarge() {
      TableEntity.Builder b = entity();
      for (int i = 0; i < 17; i++) {
        b.put("S" + i, "\u00e9".repeat(32 * 1024));
      }
      assertThat(codeOf(() -> EntityValidator.validateForWrite(b.build()))).isEqualTo(TableErrorCode.ENTITY_TOO_LARGE);
    }
  }
}
