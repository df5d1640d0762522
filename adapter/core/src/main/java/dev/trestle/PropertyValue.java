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

  /** The value's EDM type, as written in {@code @odata.type} annotations. */
  EdmType type();

  /**
   * The value as a plain Java object: String, Integer, Long, Double, Boolean, Instant, UUID or
   * byte[].
   */
  Object value();

  /**
   * An {@code Edm.String}; null is refused ({@link NullPointerException}), as for every factory
   * here.
   */
  static PropertyValue of(String value) {
    return new StringValue(value);
  }

  /** An {@code Edm.Int32}. */
  static PropertyValue of(int value) {
    return new Int32Value(value);
  }

  /** An {@code Edm.Int64}: clients see it as a JSON string, so no precision is lost. */
  static PropertyValue of(long value) {
    return new Int64Value(value);
  }

  /** An {@code Edm.Double}; NaN and the infinities are legal. */
  static PropertyValue of(double value) {
    return new DoubleValue(value);
  }

  /** An {@code Edm.Boolean}. */
  static PropertyValue of(boolean value) {
    return new BooleanValue(value);
  }

  /**
   * An {@code Edm.DateTime}, truncated to 100 ns; the store refuses instants outside years 1601 to
   * 9999.
   */
  static PropertyValue of(Instant value) {
    return new DateTimeValue(value);
  }

  /** An {@code Edm.Guid}. */
  static PropertyValue of(UUID value) {
    return new GuidValue(value);
  }

  /** An {@code Edm.Binary}, holding a copy of the bytes (at most 64 KiB in a stored entity). */
  static PropertyValue of(byte[] value) {
    return new BinaryValue(value);
  }

  /** An {@code Edm.String}: UTF-16 text, at most 32 K characters in a stored entity. */
  record StringValue(String value) implements PropertyValue {
    /** Refuses null. */
    public StringValue {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public EdmType type() {
      return EdmType.STRING;
    }
  }

  /** An {@code Edm.Int32}. */
  record Int32Value(Integer value) implements PropertyValue {
    /** Refuses null. */
    public Int32Value {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public EdmType type() {
      return EdmType.INT32;
    }
  }

  /** An {@code Edm.Int64}. */
  record Int64Value(Long value) implements PropertyValue {
    /** Refuses null. */
    public Int64Value {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public EdmType type() {
      return EdmType.INT64;
    }
  }

  /** Compared by bits, so NaN equals NaN and -0.0 differs from 0.0: round-trips must be exact. */
  record DoubleValue(Double value) implements PropertyValue {
    /** Refuses null. */
    public DoubleValue {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public EdmType type() {
      return EdmType.DOUBLE;
    }
  }

  /** An {@code Edm.Boolean}. */
  record BooleanValue(Boolean value) implements PropertyValue {
    /** Refuses null. */
    public BooleanValue {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public EdmType type() {
      return EdmType.BOOLEAN;
    }
  }

  /** A UTC instant with the service's 100-nanosecond precision (finer digits are truncated). */
  record DateTimeValue(Instant value) implements PropertyValue {
    /** Refuses null; truncates to 100 ns. */
    public DateTimeValue {
      Objects.requireNonNull(value, "value");
      value = value.minusNanos(value.getNano() % 100);
    }

    @Override
    public EdmType type() {
      return EdmType.DATE_TIME;
    }
  }

  /** An {@code Edm.Guid}. */
  record GuidValue(UUID value) implements PropertyValue {
    /** Refuses null. */
    public GuidValue {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public EdmType type() {
      return EdmType.GUID;
    }
  }

  /** Holds a private copy of the bytes; equality compares content. */
  record BinaryValue(byte[] value) implements PropertyValue {
    /** Refuses null; copies the bytes. */
    public BinaryValue {
      value = Objects.requireNonNull(value, "value").clone();
    }

    /** A copy of the bytes: changing it does not change this value. */
    @Override
    public byte[] value() {
      return value.clone();
    }

    @Override
    public EdmType type() {
      return EdmType.BINARY;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof BinaryValue b && Arrays.equals(value, b.value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "BinaryValue[" + HexFormat.of().formatHex(value) + "]";
    }
  }
}
