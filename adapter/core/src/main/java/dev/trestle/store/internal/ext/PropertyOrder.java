package dev.trestle.store.internal.ext;

import dev.trestle.EdmType;
import dev.trestle.EntityQuery.Continuation;
import dev.trestle.Ordering;
import dev.trestle.PropertyValue;
import dev.trestle.PropertyValue.BinaryValue;
import dev.trestle.PropertyValue.BooleanValue;
import dev.trestle.PropertyValue.DateTimeValue;
import dev.trestle.PropertyValue.DoubleValue;
import dev.trestle.PropertyValue.GuidValue;
import dev.trestle.PropertyValue.Int32Value;
import dev.trestle.PropertyValue.Int64Value;
import dev.trestle.PropertyValue.StringValue;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.store.internal.codec.ContinuationTokens;
import dev.trestle.store.internal.codec.ContinuationTokens.ResumePoint;
import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.ValueKind;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The total order of an {@link Ordering}: the sort value (entities without one of the ordering's
 * kind last, in both directions), then (PartitionKey, RowKey), each in the ordering's direction.
 * Values of one {@link ValueKind} compare as the filter compares them; numbers of the three numeric
 * types compare exactly with one another (NaN after every other number, as PostgreSQL orders it).
 */
final class PropertyOrder implements Comparator<PropertyOrder.SortKey> {
  /** The sort-value part of a continuation for an entity without a value of the ordering's kind. */
  private static final String NO_VALUE = "-";

  /** An entity's place in the order: its sort value (null when it has none) and its keys. */
  record SortKey(PropertyValue value, String partitionKey, String rowKey) {}

  private final Ordering ordering;
  private final ValueKind kind;

  PropertyOrder(Ordering ordering) {
    this.ordering = ordering;
    this.kind = ValueKind.of(ordering.type());
  }

  /** The entity's sort key, decoding only the ordering's property. */
  SortKey keyOf(StoredEntity entity) {
    PropertyValue value =
        switch (ordering.property()) {
          case "PartitionKey" -> PropertyValue.of(entity.partitionKey());
          case "RowKey" -> PropertyValue.of(entity.rowKey());
          case "Timestamp" -> PropertyValue.of(Ticks.toInstant(entity.ticks()));
          default ->
              entity
                  .toEntity(List.of(ordering.property()))
                  .property(ordering.property())
                  .orElse(null);
        };
    return new SortKey(
        value != null && ValueKind.of(value.type()) == kind ? value : null,
        entity.partitionKey(),
        entity.rowKey());
  }

  @Override
  public int compare(SortKey a, SortKey b) {
    if ((a.value() == null) != (b.value() == null)) {
      return a.value() == null ? 1 : -1; // without a value: last either way
    }
    int order = a.value() == null ? 0 : compareValues(a.value(), b.value());
    if (order == 0) {
      order = a.partitionKey().compareTo(b.partitionKey());
    }
    if (order == 0) {
      order = a.rowKey().compareTo(b.rowKey());
    }
    return ordering.descending() ? -order : order;
  }

  /** Two values of the ordering's kind, ascending. */
  private static int compareValues(PropertyValue a, PropertyValue b) {
    return switch (a) {
      case StringValue s -> s.value().compareTo(((StringValue) b).value()); // UTF-16 code units
      case DateTimeValue d ->
          Long.compare(Ticks.of(d.value()), Ticks.of(((DateTimeValue) b).value()));
      case BooleanValue v -> Boolean.compare(v.value(), ((BooleanValue) b).value());
      // the stored lowercase text, as the filter and the index compare it (UUID's compareTo is
      // signed)
      case GuidValue g -> g.value().toString().compareTo(((GuidValue) b).value().toString());
      case BinaryValue x -> Arrays.compareUnsigned(x.value(), ((BinaryValue) b).value());
      case Int32Value i -> compareNumbers(a, b);
      case Int64Value l -> compareNumbers(a, b);
      case DoubleValue d -> compareNumbers(a, b);
    };
  }

  private static int compareNumbers(PropertyValue a, PropertyValue b) {
    double x = approximate(a);
    double y = approximate(b);
    if (Double.isNaN(x) || Double.isNaN(y) || Double.isInfinite(x) || Double.isInfinite(y)) {
      return Double.compare(x == 0 ? 0 : x, y == 0 ? 0 : y); // NaN greatest, as Double orders
    }
    return exact(a).compareTo(exact(b));
  }

  private static double approximate(PropertyValue number) {
    return switch (number) {
      case Int32Value i -> i.value();
      case Int64Value l -> l.value();
      case DoubleValue d -> d.value();
      default -> throw new IllegalArgumentException(number.toString());
    };
  }

  private static BigDecimal exact(PropertyValue number) {
    return switch (number) {
      case Int32Value i -> BigDecimal.valueOf(i.value());
      case Int64Value l -> BigDecimal.valueOf(l.value());
      case DoubleValue d -> new BigDecimal(d.value());
      default -> throw new IllegalArgumentException(number.toString());
    };
  }

  /**
   * The continuation after this entity: the key token of {@link ContinuationTokens} in
   * NextPartitionKey, and in NextRowKey the row key's token, a '.', then the sort value's type and
   * canonical text as a token (or {@value #NO_VALUE}).
   */
  static Continuation continuationAfter(SortKey last) {
    Continuation keys = ContinuationTokens.after(last.partitionKey(), last.rowKey());
    String value =
        last.value() == null
            ? NO_VALUE
            : ContinuationTokens.encodeText(
                last.value().type().odataName() + ":" + StoredType.text(last.value()));
    return new Continuation(keys.nextPartitionKey(), keys.nextRowKey() + "." + value);
  }

  /** The sort key a continuation of {@link #continuationAfter} resumes after. */
  SortKey resumeAfter(Continuation continuation) {
    String rowPart = continuation.nextRowKey();
    int dot = rowPart == null ? -1 : rowPart.lastIndexOf('.');
    if (dot <= 0) {
      throw invalid();
    }
    ResumePoint keys =
        ContinuationTokens.decodeAfter(
            new Continuation(continuation.nextPartitionKey(), rowPart.substring(0, dot)));
    String valueToken = rowPart.substring(dot + 1);
    if (keys.rowKey() == null) {
      throw invalid();
    }
    if (valueToken.equals(NO_VALUE)) {
      return new SortKey(null, keys.partitionKey(), keys.rowKey());
    }
    String text = ContinuationTokens.decodeText(valueToken);
    int colon = text.indexOf(':');
    if (colon < 0) {
      throw invalid();
    }
    PropertyValue value;
    try {
      EdmType type = EdmType.fromOdataName(text.substring(0, colon));
      value = StoredType.of(type).parse(text.substring(colon + 1));
    } catch (RuntimeException e) {
      throw invalid();
    }
    if (ValueKind.of(value.type()) != kind) {
      throw invalid(); // a token of another ordering
    }
    return new SortKey(value, keys.partitionKey(), keys.rowKey());
  }

  private static TableException invalid() {
    return new TableException(TableErrorCode.INVALID_INPUT, "The continuation token is not valid.");
  }
}
