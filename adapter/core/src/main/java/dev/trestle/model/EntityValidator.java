package dev.trestle.model;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The Table service's rules for names, keys, properties and sizes; each violation is a
 * TableException.
 */
public final class EntityValidator {
  private EntityValidator() {}

  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]*");
  private static final String RESERVED_TABLE_NAME = "tables";

  /**
   * Table-name rule and reserved names: a length outside 3..63 is OutOfRangeInput (checked first,
   * as the service reports it); a name that is not a letter followed by letters and digits, or the
   * reserved name {@code tables} in any case, is InvalidResourceName. Null or empty is
   * OutOfRangeInput too.
   */
  public static void validateTableName(String tableName) {
    if (tableName == null
        || tableName.length() < TableLimits.MIN_TABLE_NAME_LENGTH
        || tableName.length() > TableLimits.MAX_TABLE_NAME_LENGTH) {
      throw new TableException(
          TableErrorCode.OUT_OF_RANGE_INPUT,
          "The specified resource name length is not within the permissible limits.");
    }
    if (!TABLE_NAME.matcher(tableName).matches()
        || tableName.toLowerCase(Locale.ROOT).equals(RESERVED_TABLE_NAME)) {
      // "specifed" is the service's own spelling.
      throw new TableException(
          TableErrorCode.INVALID_RESOURCE_NAME,
          "The specifed resource name contains invalid characters.");
    }
  }

  /**
   * One key (keyName is "PartitionKey" or "RowKey"): missing is PropertiesNeedValue, more than 512
   * UTF-16 code units (1 KiB) is KeyValueTooLarge, a forbidden character ({@code / \ # ?} and the
   * control characters U+0000-U+001F, U+007F-U+009F) is OutOfRangeInput. Empty keys are allowed. (A
   * {@code /} or {@code \} that breaks a key out of an entity URL is the server's InvalidInput,
   * before this.)
   */
  public static void validateKey(String keyName, String value) {
    if (value == null) {
      throw new TableException(
          TableErrorCode.PROPERTIES_NEED_VALUE,
          "The values are not specified for all properties in the entity: " + keyName + ".");
    }
    if (value.length() > TableLimits.MAX_KEY_LENGTH) {
      throw new TableException(
          TableErrorCode.KEY_VALUE_TOO_LARGE,
          "The '" + keyName + "' value is larger than the maximum allowed size (1 KiB).");
    }
    for (int i = 0; i < value.length(); i++) {
      if (isForbiddenKeyChar(value.charAt(i))) {
        throw new TableException(
            TableErrorCode.OUT_OF_RANGE_INPUT,
            "The '" + keyName + "' parameter of value '" + printable(value) + "' is out of range.");
      }
    }
  }

  /** True for the characters the service does not allow in PartitionKey or RowKey. */
  public static boolean isForbiddenKeyChar(char c) {
    return c == '/' || c == '\\' || c == '#' || c == '?' || c <= 0x1F || (c >= 0x7F && c <= 0x9F);
  }

  /**
   * Everything checked before an entity is written, in this order: keys, property count (255
   * including the three system properties), each property's name and value size (strings up to 32 K
   * UTF-16 code units, binaries up to 64 KiB, DateTime inside 1601..9999), then the entity size.
   * Reserved names among the user properties are the caller's concern.
   */
  public static void validateForWrite(TableEntity entity) {
    validateKey("PartitionKey", entity.partitionKey());
    validateKey("RowKey", entity.rowKey());
    if (entity.properties().size() > TableLimits.MAX_USER_PROPERTIES) {
      throw new TableException(
          TableErrorCode.TOO_MANY_PROPERTIES,
          "The entity has more properties than allowed: "
              + (entity.properties().size() + TableLimits.SYSTEM_PROPERTY_COUNT)
              + " including PartitionKey, RowKey and Timestamp, at most "
              + TableLimits.MAX_PROPERTIES
              + ".");
    }
    for (Map.Entry<String, PropertyValue> property : entity.properties().entrySet()) {
      PropertyNames.validate(property.getKey());
      validateValue(property.getKey(), property.getValue());
    }
    long size = EntitySize.of(entity);
    if (size > TableLimits.MAX_ENTITY_SIZE) {
      throw new TableException(
          TableErrorCode.ENTITY_TOO_LARGE,
          "The entity is larger than the maximum allowed size (1 MiB): " + size + " bytes.");
    }
  }

  private static void validateValue(String name, PropertyValue value) {
    switch (value) {
      case PropertyValue.StringValue s when s.value().length() > TableLimits.MAX_STRING_LENGTH ->
          throw new TableException(
              TableErrorCode.PROPERTY_VALUE_TOO_LARGE,
              "The property '" + name + "' is larger than the maximum allowed size (64 KiB).");
      case PropertyValue.BinaryValue b when b.value().length > TableLimits.MAX_BINARY_LENGTH ->
          throw new TableException(
              TableErrorCode.PROPERTY_VALUE_TOO_LARGE,
              "The property '" + name + "' is larger than the maximum allowed size (64 KiB).");
      case PropertyValue.DateTimeValue t when outOfRange(t.value()) ->
          throw new TableException(
              TableErrorCode.OUT_OF_RANGE_INPUT,
              "The '" + name + "' parameter of value '" + t.value() + "' is out of range.");
      default -> {}
    }
  }

  private static boolean outOfRange(Instant instant) {
    return instant.isBefore(TableLimits.MIN_DATE_TIME)
        || instant.isAfter(TableLimits.MAX_DATE_TIME);
  }

  // Keeps control characters out of messages that end up in logs and HTTP bodies.
  private static String printable(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      out.append(
          c <= 0x1F || (c >= 0x7F && c <= 0x9F)
              ? String.format("\\u%04X", (int) c)
              : String.valueOf(c));
    }
    return out.toString();
  }
}
