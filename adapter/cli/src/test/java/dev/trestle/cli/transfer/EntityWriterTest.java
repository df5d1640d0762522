package dev.trestle.cli.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableOperation;
import dev.trestle.TransactionFailedException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntityWriterTest {
  /**
   * Each element is one call: a transaction's operations, or a single write as a one-element list.
   */
  private final List<List<TableOperation.Kind>> calls = new ArrayList<>();

  private final List<Integer> transactionSizes = new ArrayList<>();
  private TableException failWith;

  @Test
  void groupsConsecutiveEntitiesOfAPartitionIntoTransactionsOfAtMost100() {
    try (EntityWriter writer = new EntityWriter(recordingTable(), EntityWriter.Mode.UPSERT)) {
      for (int i = 0; i < 250; i++) {
        writer.add(entity("a", "r" + i));
      }
      writer.add(entity("b", "r0"));
      writer.add(entity("c", "r0"));
      writer.add(entity("c", "r1"));
    }
    assertThat(transactionSizes).containsExactly(100, 100, 50, 1, 2);
    assertThat(calls.get(3)).containsExactly(TableOperation.Kind.UPSERT_REPLACE);
    assertThat(calls.getFirst()).containsOnly(TableOperation.Kind.UPSERT_REPLACE);
  }

  @Test
  void aRepeatedRowKeyStartsANewTransactionSoTheLastOneWins() {
    try (EntityWriter writer = new EntityWriter(recordingTable(), EntityWriter.Mode.MERGE)) {
      writer.add(entity("a", "1"));
      writer.add(entity("a", "2"));
      writer.add(entity("a", "1"));
    }
    assertThat(transactionSizes).containsExactly(2, 1);
    assertThat(calls.getFirst()).containsOnly(TableOperation.Kind.UPSERT_MERGE);
  }

  @Test
  void largeEntitiesSplitTransactionsBelowTheBatchSizeLimit() {
    String big = "x".repeat(30_000); // about 60 KB each as UTF-16
    try (EntityWriter writer = new EntityWriter(recordingTable(), EntityWriter.Mode.INSERT)) {
      for (int i = 0; i < 100; i++) {
        writer.add(TableEntity.builder("a", "r" + i).put("Big", big).build());
      }
    }
    assertThat(transactionSizes).hasSizeGreaterThan(2).allMatch(size -> size <= 35);
    assertThat(transactionSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(100);
  }

  @Test
  void aFailedTransactionNamesTheEntityAndTheCountWrittenBefore() {
    EntityWriter writer = new EntityWriter(recordingTable(), EntityWriter.Mode.INSERT);
    writer.add(entity("a", "1"));
    writer.add(entity("b", "1"));
    writer.add(entity("b", "2"));
    failWith =
        new TransactionFailedException(
            1,
            new TableException(
                TableErrorCode.ENTITY_ALREADY_EXISTS, "The specified entity already exists."));
    assertThatThrownBy(writer::close)
        .isInstanceOf(EntityWriter.WriteFailedException.class)
        .hasMessageContaining("(PartitionKey='b', RowKey='2')")
        .hasMessageContaining("EntityAlreadyExists")
        .hasMessageContaining("1 entities were written before it");
  }

  private static TableEntity entity(String partitionKey, String rowKey) {
    return TableEntity.builder(partitionKey, rowKey).put("V", 1).build();
  }

  @SuppressWarnings("unchecked")
  private TableClient recordingTable() {
    return (TableClient)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {TableClient.class},
            (proxy, method, args) -> {
              if (failWith != null && method.getName().equals("submitTransaction")) {
                throw failWith;
              }
              switch (method.getName()) {
                case "submitTransaction" -> {
                  List<TableOperation> operations = (List<TableOperation>) args[0];
                  calls.add(operations.stream().map(TableOperation::kind).toList());
                  transactionSizes.add(operations.size());
                  return List.of();
                }
                case "upsertReplace" -> record(TableOperation.Kind.UPSERT_REPLACE);
                case "upsertMerge" -> record(TableOperation.Kind.UPSERT_MERGE);
                case "insert" -> record(TableOperation.Kind.INSERT);
                case "tableName" -> {
                  return "t";
                }
                default -> throw new UnsupportedOperationException(method.getName());
              }
              return args[0];
            });
  }

  private void record(TableOperation.Kind kind) {
    calls.add(List.of(kind));
    transactionSizes.add(1);
  }
}
