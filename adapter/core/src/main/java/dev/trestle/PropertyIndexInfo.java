package dev.trestle;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A declared property index of one table ({@link TableService#createIndex}): the property, the type
 * it was declared for, whether it is built, and its size on disk where the database tells. An index
 * only makes filters on the property faster: the answers are the same with or without it.
 *
 * @param table the table's name as created
 * @param property the property, or {@code Timestamp}
 * @param type the type it was declared for; Int32, Int64 and Double share one index of numbers
 * @param state whether queries read through it
 * @param sizeBytes the index's size on disk; empty where the database builds none
 * @param then the further properties of an index over several, in order; empty for one property
 */
public record PropertyIndexInfo(
    String table,
    String property,
    EdmType type,
    State state,
    OptionalLong sizeBytes,
    List<IndexedProperty> then) {

  public PropertyIndexInfo {
    then = List.copyOf(then);
  }

  /** An index over one property. */
  public PropertyIndexInfo(
      String table, String property, EdmType type, State state, OptionalLong sizeBytes) {
    this(table, property, type, state, sizeBytes, List.of());
  }

  /** Every property of the index, in order: {@link #property} first, then {@link #then}. */
  public List<IndexedProperty> properties() {
    List<IndexedProperty> all = new ArrayList<>();
    all.add(new IndexedProperty(property, type));
    all.addAll(then);
    return List.copyOf(all);
  }

  /** Whether queries read through the index. */
  public enum State {
    /**
     * Being built (without blocking writes), or a build that was interrupted: queries scan until it
     * is ready; {@code createIndex} again finishes it.
     */
    BUILDING,
    /** Built and kept up to date by every write: filters on the property read through it. */
    READY,
    /** Declared on a database that builds no property indexes (H2): filters scan as before. */
    NOT_BUILT
  }
}
