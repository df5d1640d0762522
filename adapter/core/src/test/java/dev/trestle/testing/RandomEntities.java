package dev.trestle.testing;

import dev.trestle.EdmType;
import dev.trestle.TableEntity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded random entities for differential tests: unique valid keys over a few partitions (with
 * characters that stress ordinal order), properties of all eight types with edge values, properties
 * that some entities lack, and names whose type differs from entity to entity. Not stored, so no
 * Timestamp.
 */
public final class RandomEntities {
  private RandomEntities() {}

  /** A property name and the type it usually has; {@code null} means a random type every time. */
  private record Column(String name, EdmType usualType, int presencePercent) {}

  private static final List<Column> COLUMNS =
      List.of(
          new Column("Str", EdmType.STRING, 80),
          new Column("Int", EdmType.INT32, 80),
          new Column("Long", EdmType.INT64, 80),
          new Column("Dbl", EdmType.DOUBLE, 80),
          new Column("Bool", EdmType.BOOLEAN, 80),
          new Column("When", EdmType.DATE_TIME, 80),
          new Column("Id", EdmType.GUID, 80),
          new Column("Bin", EdmType.BINARY, 80),
          new Column("Mixed", null, 70),
          new Column("Rare", null, 10),
          new Column("_u\u00e9", EdmType.STRING, 30));

  private static final List<String> PARTITIONS =
      List.of("p0", "p1", "P1", "", "\u00e9", "\ue000", "\ud83d\ude00", "o'k");

  public static List<TableEntity> generate(Random random, int count) {
    Set<String> keys = new HashSet<>();
    List<TableEntity> entities = new ArrayList<>(count);
    while (entities.size() < count) {
      String partitionKey = RandomValues.pick(random, PARTITIONS);
      String rowKey = RandomValues.string(random, 3) + entities.size() % 7;
      if (!keys.add(partitionKey + "\u0000" + rowKey)) {
        rowKey =
            rowKey
                + "_"
                + entities.size(); // keeps large counts from looping on a crowded key space
        if (!keys.add(partitionKey + "\u0000" + rowKey)) {
          continue;
        }
      }
      entities.add(entity(random, partitionKey, rowKey));
    }
    return entities;
  }

  private static TableEntity entity(Random random, String partitionKey, String rowKey) {
    TableEntity.Builder builder = TableEntity.builder(partitionKey, rowKey);
    for (Column column : COLUMNS) {
      if (random.nextInt(100) >= column.presencePercent()) {
        continue;
      }
      // one time in ten a usual column holds another type, as schema-less tables allow
      EdmType type =
          column.usualType() == null || random.nextInt(10) == 0
              ? RandomValues.type(random)
              : column.usualType();
      builder.put(column.name(), RandomValues.value(random, type));
    }
    return builder.build();
  }
}
