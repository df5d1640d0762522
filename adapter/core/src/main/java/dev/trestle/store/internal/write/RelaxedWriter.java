package dev.trestle.store.internal.write;

import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableWrite;
import dev.trestle.TransactionFailedException;
import dev.trestle.model.TableLimits;
import dev.trestle.store.internal.database.GroupGuard;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.store.internal.write.EntityWriter.OperationFailure;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jooq.DSLContext;

/**
 * Runs a relaxed transaction: valid operations on distinct entities of any partitions and tables of
 * one account, in one database transaction. Each partition's operations are decided and written as
 * an entity-group transaction's are ({@link EntityWriter}), in chunks of a group's size so that the
 * statements stay the ones a group prepares; partitions go in key order, so that two relaxed
 * transactions lock shared partitions in the same order.
 */
public final class RelaxedWriter {
  private static final int CHUNK = TableLimits.MAX_BATCH_OPERATIONS;

  private final Store store;
  private final String account;

  public RelaxedWriter(Store store, String account) {
    this.store = store;
    this.account = account;
  }

  /** One partition of one table. */
  private record Partition(String nameKey, String partitionKey) {
    static final Comparator<Partition> ORDER =
        Comparator.comparing(Partition::nameKey).thenComparing(Partition::partitionKey);
  }

  /**
   * Applies the writes all or none; returns the stored entities in the writes' order, or throws
   * {@link TransactionFailedException} naming the failing operation.
   */
  public List<TableEntity> writeAll(List<TableWrite> writes) {
    Map<String, EntityWriter> writers = new LinkedHashMap<>();
    Map<Partition, List<Integer>> partitions = new TreeMap<>(Partition.ORDER);
    for (int i = 0; i < writes.size(); i++) {
      TableWrite write = writes.get(i);
      String nameKey = TableLookup.nameKey(write.tableName());
      writers.computeIfAbsent(nameKey, key -> new EntityWriter(store, account, write.tableName()));
      partitions
          .computeIfAbsent(
              new Partition(nameKey, write.operation().entity().partitionKey()),
              key -> new ArrayList<>())
          .add(i);
    }
    EntityWriter first = writers.values().iterator().next();
    try {
      return first.retried(
          () ->
              store.groups == GroupGuard.NONE
                  ? store.inTransaction(sql -> apply(sql, writes, writers, partitions))
                  : guarded(writes, writers, partitions));
    } catch (OperationFailure failure) {
      throw new TransactionFailedException(failure.index, failure.error);
    }
  }

  /** Under the group guards of every table written, taken as a group write takes its table's. */
  private List<TableEntity> guarded(
      List<TableWrite> writes,
      Map<String, EntityWriter> writers,
      Map<Partition, List<Integer>> partitions) {
    return store.onOneConnection(
        connection -> {
          List<Long> tableIds =
              writers.values().stream()
                  .map(writer -> writer.tableId(connection))
                  .filter(Objects::nonNull)
                  .toList();
          return store.groups.writeAll(
              tableIds,
              () ->
                  store.inTransaction(connection, sql -> apply(sql, writes, writers, partitions)));
        });
  }

  private static List<TableEntity> apply(
      DSLContext sql,
      List<TableWrite> writes,
      Map<String, EntityWriter> writers,
      Map<Partition, List<Integer>> partitions) {
    TableEntity[] results = new TableEntity[writes.size()];
    for (Map.Entry<Partition, List<Integer>> partition : partitions.entrySet()) {
      EntityWriter writer = writers.get(partition.getKey().nameKey());
      List<Integer> indexes = partition.getValue();
      for (int from = 0; from < indexes.size(); from += CHUNK) {
        List<Integer> chunk = indexes.subList(from, Math.min(indexes.size(), from + CHUNK));
        List<TableOperation> operations =
            chunk.stream().map(i -> writes.get(i).operation()).toList();
        List<TableEntity> stored;
        try {
          stored = writer.apply(sql, operations);
        } catch (OperationFailure failure) {
          throw new OperationFailure(chunk.get(failure.index), failure.error);
        }
        for (int k = 0; k < chunk.size(); k++) {
          results[chunk.get(k)] = stored.get(k);
        }
      }
    }
    return Arrays.asList(results);
  }
}
