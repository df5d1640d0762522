package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import dev.trestle.json.EntityLines;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Compares a table in two places by walking both in key order at once: counts, a SHA-256 over each
 * entity's typed form (keys, then every property with its EDM type, as an NDJSON line), the keys
 * missing, extra or different (the first {@value #MAX_LISTED} of them), and the partitions whose
 * counts differ. Timestamps are compared only when asked: an endpoint sets its own.
 */
public final class Verifier {
  static final int MAX_LISTED = 20;
  private static final TableEntity END = TableEntity.builder("\uFFFF", "\uFFFF").build();

  private final boolean timestamps;

  public Verifier(boolean timestamps) {
    this.timestamps = timestamps;
  }

  /** What one table's comparison found. */
  public record Result(
      String table,
      long sourceCount,
      long targetCount,
      String sourceChecksum,
      String targetChecksum,
      long differences,
      List<String> listed,
      Map<String, long[]> partitionCounts) {
    public boolean equal() {
      return differences == 0;
    }
  }

  public Result compare(String table, Source source, Source target) {
    Side a = new Side(source, table);
    Side b = new Side(target, table);
    long differences = 0;
    List<String> listed = new ArrayList<>();
    Map<String, long[]> partitions = new TreeMap<>();
    TableEntity x = a.next();
    TableEntity y = b.next();
    while (x != END || y != END) {
      int order = x == END ? 1 : y == END ? -1 : compareKeys(x, y);
      if (order == 0) {
        if (!same(x, y)) {
          differences++;
          list(listed, "different", x);
        }
        x = a.next();
        y = b.next();
      } else if (order < 0) {
        differences++;
        list(listed, "missing in target", x);
        partitions.computeIfAbsent(x.partitionKey(), k -> new long[2])[0]++;
        x = a.next();
      } else {
        differences++;
        list(listed, "only in target", y);
        partitions.computeIfAbsent(y.partitionKey(), k -> new long[2])[1]++;
        y = b.next();
      }
    }
    return new Result(
        table, a.count, b.count, a.checksum(), b.checksum(), differences, listed, partitions);
  }

  private static int compareKeys(TableEntity x, TableEntity y) {
    int pk = x.partitionKey().compareTo(y.partitionKey());
    return pk != 0 ? pk : x.rowKey().compareTo(y.rowKey());
  }

  private boolean same(TableEntity x, TableEntity y) {
    return x.properties().equals(y.properties())
        && (!timestamps || java.util.Objects.equals(x.timestamp(), y.timestamp()));
  }

  private static void list(List<String> listed, String what, TableEntity entity) {
    if (listed.size() < MAX_LISTED) {
      listed.add(
          what
              + ": (PartitionKey='"
              + entity.partitionKey()
              + "', RowKey='"
              + entity.rowKey()
              + "')");
    }
  }

  /** One side read on a thread of its own into a bounded queue. */
  private final class Side {
    private final BlockingQueue<TableEntity> queue = new ArrayBlockingQueue<>(4096);
    private final MessageDigest digest;
    private volatile RuntimeException failure;
    private long count;
    private TableEntity previous;
    private final String description;

    Side(Source source, String table) {
      description = source.describe();
      try {
        digest = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      Thread.ofPlatform()
          .daemon()
          .name("verify-" + source.describe())
          .start(
              () -> {
                try {
                  source.read(
                      table,
                      Position.START,
                      entity -> {
                        put(entity);
                        return true;
                      });
                } catch (RuntimeException e) {
                  failure = e;
                } finally {
                  put(END);
                }
              });
    }

    private void put(TableEntity entity) {
      try {
        queue.put(entity);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    TableEntity next() {
      TableEntity entity;
      try {
        entity = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted", e);
      }
      if (entity == END) {
        if (failure != null) {
          throw failure;
        }
        return END;
      }
      if (previous != null && compareKeys(previous, entity) >= 0) {
        throw new dev.trestle.cli.CliException(
            dev.trestle.cli.ExitCode.DATA,
            description
                + " is not in PartitionKey and RowKey order at (PartitionKey='"
                + entity.partitionKey()
                + "', RowKey='"
                + entity.rowKey()
                + "'): verify walks both sides in key order (files written by export are).");
      }
      previous = entity;
      count++;
      TableEntity typed =
          TableEntity.builder(entity.partitionKey(), entity.rowKey())
              .putAll(new TreeMap<>(entity.properties()))
              .timestamp(timestamps ? entity.timestamp() : null)
              .build();
      digest.update(EntityLines.write(typed).getBytes(StandardCharsets.UTF_8));
      digest.update((byte) '\n');
      return entity;
    }

    String checksum() {
      return HexFormat.of().formatHex(digest.digest());
    }
  }
}
