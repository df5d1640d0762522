package dev.trestle.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks what a distributed PostgreSQL (Citus, distributing {@code trestle_entity} by partition
 * key) needs of every transaction the store sends: each statement that writes or locks entities
 * names one partition key by equality (and its table), and the writes and locks of one transaction
 * all name the same one. Reads that name no single partition are the scans a query legitimately
 * spans partitions with (multi-shard reads); they are counted, not refused. Every PostgreSQL {@link
 * TestDatabase} service sends its statements through here; {@link DatabaseTest} fails the test that
 * caused a violation.
 */
public final class PartitionConfinement {
  /** What a statement on the entity table is, for a distributed database. */
  public enum Kind {
    /** Reads entities of one partition. */
    READ_ONE_PARTITION,
    /** Reads entities of several partitions: a multi-shard read. */
    READ_ACROSS_PARTITIONS,
    /** Writes or locks entities of one partition. */
    WRITE_ONE_PARTITION,
    /** Writes or locks entities without naming one partition: a multi-shard write. */
    WRITE_ACROSS_PARTITIONS,
    /** Builds or analyses the table (declared indexes): DDL, which Citus sends to every shard. */
    DDL
  }

  /** A statement on the entity table as classified, with its partition key when it names one. */
  public record Statement(Kind kind, Object partition) {}

  private static final Pattern ENTITY_TABLE = Pattern.compile("\\btrestle_entity\\b");
  private static final Pattern PARTITION_EQUALS =
      Pattern.compile("(?<![\\w.])(?:\\w+\\.)?partition_key\\s*=\\s*\\?");
  private static final Pattern INSERT =
      Pattern.compile(
          "^\\s*insert\\s+into\\s+trestle_entity(?:\\s+as\\s+\\w+)?\\s*\\(([^)]*)\\)\\s*(values|select)");

  /** A bound value, bare or cast to a type: {@code ?} or {@code cast(? as varchar)}. */
  private static final Pattern PARAMETER =
      Pattern.compile("\\?|cast\\(\\s*\\?\\s+as\\s+[\\w ]+\\)");

  private static final String SCALARS_WRITTEN = "with w as (";

  private static final List<String> VIOLATIONS = new ArrayList<>();
  private static final Map<Kind, AtomicLong> COUNTS = new ConcurrentHashMap<>();
  private static final AtomicLong TRANSACTIONS = new AtomicLong();
  private static final AtomicLong WRITING_TRANSACTIONS = new AtomicLong();

  static {
    for (Kind kind : Kind.values()) {
      COUNTS.put(kind, new AtomicLong());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(PartitionConfinement::writeSummary));
  }

  private PartitionConfinement() {}

  /** Checks one transaction as it ended; violations are kept for {@link #takeViolations()}. */
  static void check(List<RecordingDataSource.Execution> transaction) {
    List<String> found = violations(transaction);
    if (!found.isEmpty()) {
      synchronized (VIOLATIONS) {
        VIOLATIONS.addAll(found);
      }
    }
  }

  /** The violations found since the last call. */
  static List<String> takeViolations() {
    synchronized (VIOLATIONS) {
      List<String> taken = List.copyOf(VIOLATIONS);
      VIOLATIONS.clear();
      return taken;
    }
  }

  /** What is wrong with one transaction for a database distributed by partition key. */
  public static List<String> violations(List<RecordingDataSource.Execution> transaction) {
    List<String> violations = new ArrayList<>();
    Set<Object> written = new HashSet<>();
    boolean touched = false;
    boolean writes = false;
    for (RecordingDataSource.Execution execution : transaction) {
      Statement statement = classify(execution.sql(), execution.binds());
      if (statement == null) {
        continue;
      }
      touched = true;
      COUNTS.get(statement.kind()).incrementAndGet();
      switch (statement.kind()) {
        case WRITE_ONE_PARTITION -> {
          writes = true;
          written.add(statement.partition());
        }
        case WRITE_ACROSS_PARTITIONS -> {
          writes = true;
          violations.add("writes or locks no single partition: " + execution.sql());
        }
        default -> {}
      }
    }
    if (written.size() > 1) {
      violations.add(
          "one transaction writes partitions "
              + written
              + ": "
              + transaction.stream().map(RecordingDataSource.Execution::sql).toList());
    }
    if (touched) {
      TRANSACTIONS.incrementAndGet();
    }
    if (writes) {
      WRITING_TRANSACTIONS.incrementAndGet();
    }
    return violations;
  }

  /** Null when the statement does not touch the entity table. */
  public static Statement classify(String sql, Map<Integer, Object> binds) {
    String text = sql.toLowerCase(Locale.ROOT);
    if (text.startsWith(SCALARS_WRITTEN)) {
      // a write with its scalar row (EntityStatements.withScalars): classified as the entity write
      // it opens with; blanks keep the parameters' positions
      text = " ".repeat(SCALARS_WRITTEN.length()) + text.substring(SCALARS_WRITTEN.length());
    }
    if (!ENTITY_TABLE.matcher(text).find()) {
      return null;
    }
    String first = text.strip().split("\\s+", 2)[0];
    boolean write =
        switch (first) {
          case "insert", "update", "delete", "merge" -> true;
          case "create", "drop", "alter", "analyze", "vacuum" -> false;
          default -> text.contains(" for update") || text.contains(" for share");
        };
    if (Set.of("create", "drop", "alter", "analyze", "vacuum").contains(first)) {
      return new Statement(Kind.DDL, null);
    }
    Set<Object> partitions = new HashSet<>();
    Matcher equals = PARTITION_EQUALS.matcher(text);
    while (equals.find()) {
      partitions.add(bind(binds, parameterIndex(text, equals.end() - 1)));
    }
    Matcher insert = INSERT.matcher(text);
    if (insert.find()) {
      partitions.addAll(insertedPartitions(text, insert, binds));
    }
    boolean onePartition =
        partitions.size() == 1 && !partitions.contains(null) && text.contains("table_id");
    Object partition = onePartition ? partitions.iterator().next() : null;
    if (write) {
      return new Statement(
          onePartition ? Kind.WRITE_ONE_PARTITION : Kind.WRITE_ACROSS_PARTITIONS, partition);
    }
    return new Statement(
        onePartition ? Kind.READ_ONE_PARTITION : Kind.READ_ACROSS_PARTITIONS, partition);
  }

  /** The partition key values of an insert's rows (null for a value that is not a parameter). */
  private static List<Object> insertedPartitions(
      String text, Matcher insert, Map<Integer, Object> binds) {
    List<String> columns = List.of(insert.group(1).split("\\s*,\\s*"));
    int column = columns.indexOf("partition_key");
    if (column < 0) {
      column = columns.stream().map(String::strip).toList().indexOf("partition_key");
    }
    List<Object> values = new ArrayList<>();
    int position = insert.end();
    if (insert.group(2).equals("select")) {
      List<int[]> items = topLevelItems(text, position, true);
      values.add(valueAt(text, items, column, binds));
      return values;
    }
    while (true) {
      int open = text.indexOf('(', position);
      if (open < 0) {
        return values;
      }
      String between = text.substring(position, open).strip();
      if (!between.isEmpty() && !between.equals(",")) {
        return values;
      }
      List<int[]> items = topLevelItems(text, open + 1, false);
      values.add(valueAt(text, items, column, binds));
      position = items.get(items.size() - 1)[1] + 1;
    }
  }

  private static Object valueAt(
      String text, List<int[]> items, int column, Map<Integer, Object> binds) {
    if (column < 0 || column >= items.size()) {
      return null;
    }
    int[] item = items.get(column);
    String value = text.substring(item[0], item[1]).strip();
    if (!PARAMETER.matcher(value).matches()) {
      return null;
    }
    return bind(binds, parameterIndex(text, text.indexOf('?', item[0])));
  }

  /**
   * The comma-separated items from {@code start} to the closing parenthesis at depth zero (or, for
   * a select list, to a top-level {@code from}), as [start, end) pairs.
   */
  private static List<int[]> topLevelItems(String text, int start, boolean selectList) {
    List<int[]> items = new ArrayList<>();
    int depth = 0;
    int itemStart = start;
    boolean quoted = false;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (quoted) {
        continue;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (depth == 0) {
          items.add(new int[] {itemStart, i});
          return items;
        }
        depth--;
      } else if (c == ',' && depth == 0) {
        items.add(new int[] {itemStart, i});
        itemStart = i + 1;
      } else if (selectList && depth == 0 && text.startsWith(" from ", i)) {
        items.add(new int[] {itemStart, i});
        return items;
      }
    }
    items.add(new int[] {itemStart, text.length()});
    return items;
  }

  /** The 1-based JDBC parameter index of the {@code ?} at {@code position}. */
  private static int parameterIndex(String text, int position) {
    int index = 0;
    boolean quoted = false;
    for (int i = 0; i <= position; i++) {
      char c = text.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (c == '?' && !quoted) {
        index++;
      }
    }
    return index;
  }

  private static Object bind(Map<Integer, Object> binds, int index) {
    return binds.containsKey(index) ? Objects.requireNonNullElse(binds.get(index), "NULL") : null;
  }

  /** How many statements of each kind and transactions were checked in this JVM. */
  static String summary() {
    StringBuilder text =
        new StringBuilder("Partition confinement on PostgreSQL: ")
            .append(TRANSACTIONS.get())
            .append(" transactions touching trestle_entity, ")
            .append(WRITING_TRANSACTIONS.get())
            .append(" of them writing or locking; statements:");
    COUNTS.forEach((kind, count) -> text.append(' ').append(kind).append('=').append(count.get()));
    return text.toString();
  }

  private static void writeSummary() {
    if (TRANSACTIONS.get() == 0) {
      return;
    }
    try {
      Path target = Path.of("target");
      if (Files.isDirectory(target)) {
        Files.writeString(target.resolve("partition-confinement.txt"), summary() + "\n");
      }
    } catch (IOException ignored) {
      // a summary for people only
    }
  }
}
