package dev.trestle.cli.transfer;

import dev.trestle.EdmType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The columns of a relational table holding a Trestle table: PartitionKey, RowKey, Timestamp, then
 * one column per property named as it, except that a property seen with several types (a conflict)
 * gets one column per type, named {@code Property_Type} (e.g. {@code Price_Int64}), each entity
 * filling the one of its value's type.
 */
final class SqlTableColumns {
  static final List<String> KEYS = List.of("PartitionKey", "RowKey", "Timestamp");

  /** One property column: the property, the type it holds, its name in the table. */
  record Column(String property, EdmType type, String name) {}

  private final Map<String, Map<EdmType, Column>> byProperty = new LinkedHashMap<>();
  private final List<Column> columns = new ArrayList<>();
  private final List<String> conflicts = new ArrayList<>();

  SqlTableColumns(Map<String, Set<EdmType>> types) {
    Set<String> taken = new HashSet<>();
    KEYS.forEach(key -> taken.add(key.toLowerCase(Locale.ROOT)));
    types.keySet().forEach(property -> taken.add(property.toLowerCase(Locale.ROOT)));
    for (Map.Entry<String, Set<EdmType>> property : types.entrySet()) {
      Map<EdmType, Column> own = new LinkedHashMap<>();
      boolean conflict = property.getValue().size() > 1;
      List<String> names = new ArrayList<>();
      for (EdmType type : property.getValue()) {
        String name =
            conflict
                ? unique(property.getKey() + "_" + type.odataName().substring(4), taken)
                : property.getKey();
        Column column = new Column(property.getKey(), type, name);
        own.put(type, column);
        columns.add(column);
        names.add(name + " (" + type.odataName() + ")");
      }
      byProperty.put(property.getKey(), own);
      if (conflict) {
        conflicts.add("property '" + property.getKey() + "' has several types: columns " + names);
      }
    }
  }

  /**
   * Keeps generated names apart from properties and from one another (SQL ignores no case here, but
   * users do).
   */
  private static String unique(String name, Set<String> taken) {
    String candidate = name;
    for (int i = 2; !taken.add(candidate.toLowerCase(Locale.ROOT)); i++) {
      candidate = name + "_" + i;
    }
    return candidate;
  }

  List<Column> columns() {
    return columns;
  }

  /** The column of a property's value of this type. */
  Column of(String property, EdmType type) {
    return byProperty.get(property).get(type);
  }

  /** One line per property whose values have several types. */
  List<String> conflicts() {
    return conflicts;
  }
}
