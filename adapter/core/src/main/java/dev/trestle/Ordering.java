package dev.trestle;

import java.util.Objects;

/**
 * The order of an {@link TableExtensions#queryOrderedBy ordered query}: by the values of one
 * property of one kind, ascending or descending. Values compare as the filter's comparison
 * operators compare them: Int32, Int64 and Double values as one kind of numbers (exactly), strings
 * by UTF-16 code units, DateTime values by ticks, Guids by their lowercase text, binaries by their
 * unsigned bytes, false before true. Entities lacking the property, or holding a value of another
 * kind, come last in both directions. Ties, and the entities that come last, are ordered by
 * (PartitionKey, RowKey) in the same direction. {@code PartitionKey}, {@code RowKey} (strings) and
 * {@code Timestamp} (a DateTime) may be named too.
 */
public record Ordering(String property, EdmType type, boolean descending) {

  public Ordering {
    Objects.requireNonNull(property, "property");
    Objects.requireNonNull(type, "type");
    if (property.isEmpty()) {
      throw new TableException(TableErrorCode.INVALID_INPUT, "The ordering property is empty.");
    }
    EdmType required =
        switch (property) {
          case "PartitionKey", "RowKey" -> EdmType.STRING;
          case "Timestamp" -> EdmType.DATE_TIME;
          default -> type;
        };
    if (required != type) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          property
              + " is an "
              + required.odataName()
              + "; it cannot be ordered as "
              + type.odataName()
              + ".");
    }
  }

  /** Smallest values first. */
  public static Ordering ascending(String property, EdmType type) {
    return new Ordering(property, type, false);
  }

  /** Largest values first. */
  public static Ordering descending(String property, EdmType type) {
    return new Ordering(property, type, true);
  }
}
