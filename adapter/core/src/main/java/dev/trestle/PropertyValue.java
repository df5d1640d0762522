package dev.trestle;

import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.UUID;

/**
 * A typed property value. One record per EDM type, so callers can switch over them exhaustively.
 * Null values do not exist in the Table model: a property is either present with a value or absent.
 */
public sealed interface PropertyValue {

  EdmType type();

  /** The value as a plain Java object: String, Integer, Long, Double, Boolean, Instant, UUID or byte[]. */
  Object value();

  static PropertyValue of(String value) { return new StringValue(value); }
  static PropertyValue of(int value) { return new Int32Value(value); }
  static PropertyValue of(long value) { return new Int64Value(value); }
  static PropertyValue of(double value) { return new DoubleValue(value); }
  static PropertyValue of(boolean value) { return new BooleanValue(value); }
  static PropertyValue of(Instant value) { return new DateTimeValue(value); }
  static PropertyValue of(UUID value) { return new GuidValue(value); }
  static PropertyValue of(byte[] value) { return new BinaryValue(value); }

  record StringValue(String value) implements PropertyValue {
    public StringValue { Objects.requireNonNull(value, "value"); }
    @Override public EdmType type() { return EdmType.STRING; }
  }

  record Int32Value(Integer value) implements PropertyValue {
    public Int32Value { Objects.requireNonNull(value, "value"); }
    @Override public EdmType type() { return EdmType.INT32; }
  }

  record Int64Value(Long value) implements PropertyValue {
    public Int64Value { Objects.requireNonNull(value, "value"); }
    @Override public EdmType type() { return EdmType.INT64; }
  }

  /** Compared by bits, so NaN equals NaN and -0.0 differs from 0.0: round-trips must be exact. */
  record DoubleValue(Double value) implements PropertyValue {
    public DoubleValue { Objects.requireNonNull(value, "value"); }
    @Override public EdmType type() { return EdmType.DOUBLE; }
  }

  record BooleanValue(Boolean value) implements PropertyValue {
    public BooleanValue { Objects.requireNonNull(value, "value"); }
    @Override public EdmType type() { return EdmType.BOOLEAN; }
  }

  /** A UTC instant with the service's 100-nanosecond precision (finer digits are truncated). */
  record DateTimeValue(Instant value) implements PropertyValue {
    public DateTimeValue {
      Objects.requireNonNull(value, "value");
      value = value.minusNanos(value.getNano() % 100);
    }
    @Override public EdmType type() { return EdmType.DATE_TIME; }
  }

  record GuidValue(UUID value) implements PropertyValue {
    public GuidValue { Objects.requireNonNull(value, "value"); }
    @Override public EdmType type() { return EdmType.GUID; }
  }

  /** Holds a private copy of the bytes; equality compares content. */
  record BinaryValue(byte[] value) implements PropertyValue {
    public BinaryValue { value = Objects.requireNonNull(value, "value").clone(); }
    @Override public byte[] value() { return value.clone(); }
    @Override public EdmType type() { return EdmType.BINARY; }
    @Override public boolean equals(Object other) {
      return other instanceof BinaryValue b && Arrays.equals(value, b.value);
    }
    @Override public int hashCode() { return Arrays.hashCode(value); }
    @Override public String toString() { return "BinaryValue[" + HexFormat.of().formatHex(value) + "]"; }
  }
}
