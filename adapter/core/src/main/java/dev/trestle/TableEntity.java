package dev.trestle;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * An immutable entity: its two keys, its user properties in the order they were given, and, once
 * stored, the ETag and Timestamp the store assigned. Timestamp and ETag on an entity passed to a
 * write are ignored.
 */
public final class TableEntity {
  private final String partitionKey;
  private final String rowKey;
  private final Map<String, PropertyValue> properties;
  private final String etag;
  private final Instant timestamp;

  private TableEntity(Builder builder) {
    this.partitionKey = Objects.requireNonNull(builder.partitionKey, "partitionKey");
    this.rowKey = Objects.requireNonNull(builder.rowKey, "rowKey");
    // the builder's map itself: the builder copies it before any later change (copy on write)
    this.properties = Collections.unmodifiableMap(builder.properties);
    builder.shared = true;
    this.etag = builder.etag;
    this.timestamp = builder.timestamp;
  }

  /**
   * Starts an entity with its two keys (never null; empty is legal). Key characters and sizes are
   * checked when the entity reaches the store, which refuses them with {@code InvalidInput} or
   * {@code KeyValueTooLarge}.
   */
  public static Builder builder(String partitionKey, String rowKey) {
    return new Builder(partitionKey, rowKey);
  }

  /** The partition key, never null: entities of one partition can share a transaction. */
  public String partitionKey() {
    return partitionKey;
  }

  /** The row key, never null: unique within the partition. */
  public String rowKey() {
    return rowKey;
  }

  /** User properties only (no PartitionKey, RowKey or Timestamp), in insertion order. */
  public Map<String, PropertyValue> properties() {
    return properties;
  }

  /**
   * The user property with this exact (case-sensitive) name, or empty when the entity does not have
   * it.
   */
  public Optional<PropertyValue> property(String name) {
    return Optional.ofNullable(properties.get(name));
  }

  // Typed getters, named after the EDM type as in the .NET SDK's TableEntity (GetString, GetInt32,
  // ...): null when the entity lacks the property, since Table entities need not share a schema.

  /**
   * The {@code Edm.String} property with this name, or null when the entity does not have it.
   *
   * @throws ClassCastException when the property has another type
   */
  public String getString(String name) {
    return typed(name, EdmType.STRING, String.class);
  }

  /**
   * The {@code Edm.Int32} property with this name, or null when the entity does not have it.
   *
   * @throws ClassCastException when the property has another type
   */
  public Integer getInt32(String name) {
    return typed(name, EdmType.INT32, Integer.class);
  }

  /**
   * The {@code Edm.Int64} property with this name, or null when the entity does not have it. An
   * {@code Edm.Int32} is widened, as clients that write small numbers as Int32 (JavaScript, Python)
   * may have stored it so.
   *
   * @throws ClassCastException when the property has another type
   */
  public Long getInt64(String name) {
    PropertyValue value = properties.get(name);
    if (value instanceof PropertyValue.Int32Value(Integer i)) {
      return i.longValue();
    }
    return typed(name, EdmType.INT64, Long.class);
  }

  /**
   * The {@code Edm.Double} property with this name, or null when the entity does not have it. An
   * {@code Edm.Int32} is widened (exactly); an {@code Edm.Int64} is not, as it may not fit.
   *
   * @throws ClassCastException when the property has another type
   */
  public Double getDouble(String name) {
    PropertyValue value = properties.get(name);
    if (value instanceof PropertyValue.Int32Value(Integer i)) {
      return i.doubleValue();
    }
    return typed(name, EdmType.DOUBLE, Double.class);
  }

  /**
   * The {@code Edm.Boolean} property with this name, or null when the entity does not have it.
   *
   * @throws ClassCastException when the property has another type
   */
  public Boolean getBoolean(String name) {
    return typed(name, EdmType.BOOLEAN, Boolean.class);
  }

  /**
   * The {@code Edm.DateTime} property with this name (UTC, 100 ns precision), or null when the
   * entity does not have it. The entity's own Timestamp is {@link #timestamp()}.
   *
   * @throws ClassCastException when the property has another type
   */
  public Instant getDateTime(String name) {
    return typed(name, EdmType.DATE_TIME, Instant.class);
  }

  /**
   * The {@code Edm.Guid} property with this name, or null when the entity does not have it.
   *
   * @throws ClassCastException when the property has another type
   */
  public UUID getGuid(String name) {
    return typed(name, EdmType.GUID, UUID.class);
  }

  /**
   * A copy of the {@code Edm.Binary} property with this name, or null when the entity does not have
   * it.
   *
   * @throws ClassCastException when the property has another type
   */
  public byte[] getBinary(String name) {
    return typed(name, EdmType.BINARY, byte[].class);
  }

  private <T> T typed(String name, EdmType type, Class<T> javaType) {
    PropertyValue value = properties.get(Objects.requireNonNull(name, "name"));
    if (value == null) {
      return null;
    }
    if (value.type() != type) {
      throw new ClassCastException(
          "Property '"
              + name
              + "' of entity ("
              + partitionKey
              + ", "
              + rowKey
              + ") is "
              + value.type().odataName()
              + ", not "
              + type.odataName()
              + ".");
    }
    return javaType.cast(value.value());
  }

  /**
   * The ETag of the stored version, e.g. {@code W/"datetime'2024-01-01T00%3A00%3A00.1234567Z'"};
   * null if not stored.
   */
  public String etag() {
    return etag;
  }

  /** When the stored version was written, at 100 ns precision; null if not stored. */
  public Instant timestamp() {
    return timestamp;
  }

  /** A builder holding this entity's values, for derived copies. */
  public Builder toBuilder() {
    Builder builder = new Builder(partitionKey, rowKey);
    builder.properties = properties;
    builder.shared = true;
    builder.etag = etag;
    builder.timestamp = timestamp;
    return builder;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TableEntity e
        && partitionKey.equals(e.partitionKey)
        && rowKey.equals(e.rowKey)
        && properties.equals(e.properties)
        && Objects.equals(etag, e.etag)
        && Objects.equals(timestamp, e.timestamp);
  }

  @Override
  public int hashCode() {
    return Objects.hash(partitionKey, rowKey, properties, etag, timestamp);
  }

  @Override
  public String toString() {
    return "TableEntity[PartitionKey="
        + partitionKey
        + ", RowKey="
        + rowKey
        + ", etag="
        + etag
        + ", timestamp="
        + timestamp
        + ", properties="
        + properties
        + "]";
  }

  /** Collects keys and properties; {@code put} with an existing name replaces the value. */
  public static final class Builder {
    private final String partitionKey;
    private final String rowKey;
    private Map<String, PropertyValue> properties = new LinkedHashMap<>();

    /**
     * Whether {@link #properties} is also an entity's (built from this builder, or the one it was
     * copied from): then it is copied before it changes, so that entities stay immutable and a copy
     * that changes nothing costs nothing.
     */
    private boolean shared;

    private String etag;
    private Instant timestamp;

    private Builder(String partitionKey, String rowKey) {
      this.partitionKey = partitionKey;
      this.rowKey = rowKey;
    }

    /**
     * Sets a property; neither may be null (the Table model has no null values: {@link #remove}
     * instead).
     */
    public Builder put(String name, PropertyValue value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      writable().put(name, value);
      return this;
    }

    /** Sets an {@code Edm.String} property. */
    public Builder put(String name, String value) {
      return put(name, PropertyValue.of(value));
    }

    /** Sets an {@code Edm.Int32} property. */
    public Builder put(String name, int value) {
      return put(name, PropertyValue.of(value));
    }

    /** Sets an {@code Edm.Int64} property. */
    public Builder put(String name, long value) {
      return put(name, PropertyValue.of(value));
    }

    /** Sets an {@code Edm.Double} property. */
    public Builder put(String name, double value) {
      return put(name, PropertyValue.of(value));
    }

    /** Sets an {@code Edm.Boolean} property. */
    public Builder put(String name, boolean value) {
      return put(name, PropertyValue.of(value));
    }

    /** Sets an {@code Edm.DateTime} property, truncated to 100 ns. */
    public Builder put(String name, Instant value) {
      return put(name, PropertyValue.of(value));
    }

    /** Sets an {@code Edm.Guid} property. */
    public Builder put(String name, UUID value) {
      return put(name, PropertyValue.of(value));
    }

    /** Sets an {@code Edm.Binary} property from a copy of the bytes. */
    public Builder put(String name, byte[] value) {
      return put(name, PropertyValue.of(value));
    }

    /** Sets each of these properties, in the map's order. */
    public Builder putAll(Map<String, PropertyValue> values) {
      values.forEach(this::put);
      return this;
    }

    /** Drops a property if present, e.g. from a {@link TableEntity#toBuilder()} copy. */
    public Builder remove(String name) {
      if (properties.containsKey(name)) {
        writable().remove(name);
      }
      return this;
    }

    private Map<String, PropertyValue> writable() {
      if (shared) {
        properties = new LinkedHashMap<>(properties);
        shared = false;
      }
      return properties;
    }

    /** Set by the store when it returns an entity. */
    public Builder etag(String etag) {
      this.etag = etag;
      return this;
    }

    /** Set by the store when it returns an entity. */
    public Builder timestamp(Instant timestamp) {
      this.timestamp = timestamp;
      return this;
    }

    /** The immutable entity; a later change to this builder does not affect it. */
    public TableEntity build() {
      return new TableEntity(this);
    }
  }
}
