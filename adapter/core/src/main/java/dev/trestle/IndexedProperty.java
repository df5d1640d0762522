package dev.trestle;

import java.util.Objects;

/**
 * One property of a declared index and the type of the values filters compare it with ({@link
 * TableService#createIndex(String, java.util.List)}); {@code Timestamp} with {@link
 * EdmType#DATE_TIME} is the entities' write time. Int32, Int64 and Double are one kind of value.
 */
public record IndexedProperty(String name, EdmType type) {
  public IndexedProperty {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }
}
