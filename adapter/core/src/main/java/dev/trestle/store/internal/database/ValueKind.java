package dev.trestle.store.internal.database;

import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.util.Locale;

/**
 * What a declared index holds of a property: the values of the stored types that compare with one
 * another, so that one index serves every literal type that matches them. Int32 literals also match
 * Int64 and Double values, so the three numeric types share one index of numbers; {@code Timestamp}
 * is the entity's write time, a column of its own.
 */
public enum ValueKind {
  NUMBER(EdmType.INT32),
  STRING(EdmType.STRING),
  DATE_TIME(EdmType.DATE_TIME),
  BOOLEAN(EdmType.BOOLEAN),
  GUID(EdmType.GUID),
  BINARY(EdmType.BINARY),
  TIMESTAMP(EdmType.DATE_TIME);

  /** The type this kind is listed with when its declaration is not at hand. */
  public final EdmType listedType;

  ValueKind(EdmType listedType) {
    this.listedType = listedType;
  }

  /** The name stored in the catalogue. */
  public String storedName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ValueKind ofStoredName(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  /**
   * The kind a declaration of {@code property} for values of {@code type} indexes; {@code
   * InvalidInput} for the keys (always indexed) and for {@code Timestamp} with another type than
   * DateTime.
   */
  public static ValueKind declared(String property, EdmType type) {
    switch (property) {
      case "PartitionKey", "RowKey" ->
          throw new TableException(
              TableErrorCode.INVALID_INPUT,
              property + " needs no declared index: the entity key is always indexed.");
      case "Timestamp" -> {
        if (type != EdmType.DATE_TIME) {
          throw new TableException(
              TableErrorCode.INVALID_INPUT,
              "Timestamp is an Edm.DateTime; it cannot be indexed as " + type.odataName() + ".");
        }
        return TIMESTAMP;
      }
      default -> {
        return of(type);
      }
    }
  }

  /** The kind whose index holds the values that a literal of this type compares with. */
  public static ValueKind of(EdmType type) {
    return switch (type) {
      case INT32, INT64, DOUBLE -> NUMBER;
      case STRING -> STRING;
      case DATE_TIME -> DATE_TIME;
      case BOOLEAN -> BOOLEAN;
      case GUID -> GUID;
      case BINARY -> BINARY;
    };
  }

  /** The kind whose index serves comparisons of a user property with this literal. */
  public static ValueKind ofLiteral(PropertyValue literal) {
    return of(literal.type());
  }
}
