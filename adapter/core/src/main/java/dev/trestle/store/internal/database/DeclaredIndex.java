package dev.trestle.store.internal.database;

import dev.trestle.EdmType;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of the index catalogue: a table's property indexed for one kind of value, then possibly
 * further properties ({@code then}, in order), under the physical index name the database knows it
 * by.
 *
 * @param ready whether it is built, so that queries may read through it
 */
public record DeclaredIndex(
    long tableId,
    String property,
    ValueKind kind,
    EdmType declaredType,
    List<Column> then,
    String indexName,
    boolean ready) {

  /** One further property of an index over several. */
  public record Column(String property, ValueKind kind, EdmType declaredType) {}

  public DeclaredIndex {
    then = List.copyOf(then);
  }

  /**
   * Whether this index, led by its property, holds the values that filters compare {@code property}
   * with as {@code kind}.
   */
  public boolean serves(String property, ValueKind kind) {
    return this.kind == kind && this.property.equals(property);
  }

  /**
   * Whether its further properties are these, with the same kinds in the same order (Int32 and
   * Double are one kind).
   */
  public boolean hasThen(List<Column> further) {
    if (then.size() != further.size()) {
      return false;
    }
    for (int i = 0; i < then.size(); i++) {
      Column mine = then.get(i);
      Column theirs = further.get(i);
      if (!mine.property().equals(theirs.property()) || mine.kind() != theirs.kind()) {
        return false;
      }
    }
    return true;
  }

  /** Every property of the index in order, its own first. */
  public List<Column> columns() {
    List<Column> columns = new ArrayList<>();
    columns.add(new Column(property, kind, declaredType));
    columns.addAll(then);
    return columns;
  }

  /** The further properties as the catalogue stores them: {@code name:kind:Edm.Type;...}. */
  static String storedThen(List<Column> then) {
    StringBuilder text = new StringBuilder();
    for (Column column : then) {
      if (!text.isEmpty()) {
        text.append(';');
      }
      text.append(column.property())
          .append(':')
          .append(column.kind().storedName())
          .append(':')
          .append(column.declaredType().odataName());
    }
    return text.toString();
  }

  /** The further properties from the catalogue's text (property names hold no ':' or ';'). */
  static List<Column> parseThen(String stored) {
    List<Column> then = new ArrayList<>();
    if (stored == null || stored.isEmpty()) {
      return then;
    }
    for (String part : stored.split(";")) {
      String[] fields = part.split(":");
      then.add(
          new Column(
              fields[0], ValueKind.ofStoredName(fields[1]), EdmType.fromOdataName(fields[2])));
    }
    return then;
  }
}
