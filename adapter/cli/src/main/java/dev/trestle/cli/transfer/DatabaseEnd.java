package dev.trestle.cli.transfer;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableInfo;
import dev.trestle.TablePage;
import dev.trestle.TableQuery;
import dev.trestle.TableService;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A database as a source (the library's bulk read in key order; query pages when filtered) and as a
 * sink (the library's {@link BulkWriter}: transactions of 1,000, keeping Timestamps unless told not
 * to; merge mode goes through entity-group transactions instead).
 */
public final class DatabaseEnd implements End {
  private final TableService tables;
  private final EntityWriter.Mode mode;
  private final boolean keepTimestamps;
  private final String description;
  private final String filter;

  public DatabaseEnd(
      TableService tables, EntityWriter.Mode mode, boolean keepTimestamps, String description) {
    this(tables, mode, keepTimestamps, description, null);
  }

  /** A source reading only the entities matching {@code filter} (null: all). */
  public DatabaseEnd(
      TableService tables,
      EntityWriter.Mode mode,
      boolean keepTimestamps,
      String description,
      String filter) {
    this.filter = filter;
    this.tables = tables;
    this.mode = mode;
    this.keepTimestamps = keepTimestamps;
    this.description = description;
  }

  @Override
  public List<String> tableNames() {
    List<String> names = new ArrayList<>();
    TableQuery query = TableQuery.all();
    while (true) {
      TablePage page = tables.queryTables(query);
      page.tables().forEach(t -> names.add(t.name()));
      if (page.nextTableName().isEmpty()) {
        return names;
      }
      query = new TableQuery(null, null, page.nextTableName().get());
    }
  }

  @Override
  public Optional<String> find(String table) {
    return tables.getTable(table).map(TableInfo::name);
  }

  @Override
  public void read(String table, Position from, Predicate<TableEntity> each) {
    if (filter == null) {
      tables.readEntities(table, from.partitionKey(), from.rowKey(), each);
      return;
    }
    String after = from.afterFilter();
    EntityQuery query =
        EntityQuery.filter(
            filter == null
                ? after
                : after == null ? filter : "(" + filter + ") and (" + after + ")");
    while (true) {
      EntityPage page = tables.tableClient(table).query(query);
      for (TableEntity entity : page.entities()) {
        if (!each.test(entity)) {
          return;
        }
      }
      if (page.next().isEmpty()) {
        return;
      }
      query = query.withContinuation(page.next().get());
    }
  }

  /** Stored entities when all are read (a filter needs them decoded). */
  @Override
  public String storedFormRead() {
    return filter == null ? tables.storedForm() : null;
  }

  @Override
  public void readRaw(String table, Position from, Predicate<RawEntity> each) {
    tables.readRawEntities(table, from.partitionKey(), from.rowKey(), each);
  }

  /** Stored entities in the bulk modes (merge needs them decoded). */
  @Override
  public String storedFormWritten() {
    return mode == EntityWriter.Mode.MERGE ? null : tables.storedForm();
  }

  @Override
  public Table open(String table, Position from) {
    tables.createTableIfNotExists(table);
    if (mode == EntityWriter.Mode.MERGE) {
      CommittedGroups groups =
          new CommittedGroups(new DatabaseGroups(tables.tableClient(table)), 1);
      return new EndpointEnd.GroupTable(new EntityWriter(groups, mode), groups);
    }
    return new Bulk(table, !from.atStart());
  }

  @Override
  public boolean keepsTimestamps() {
    return keepTimestamps;
  }

  @Override
  public String describe() {
    return description;
  }

  /**
   * Bulk writes. A resumed insert writes its first batches as insert-or-replace: those may have
   * been committed just before the stop that the checkpoint did not see (the batches in flight, and
   * the one whose checkpoint was being written).
   */
  private final class Bulk implements Table {
    private static final long REPLACED_AFTER_RESUME =
        (BulkWriteOptions.PIPELINED_BATCHES + 1L) * BulkWriteOptions.DEFAULT_BATCH_SIZE;

    private final String table;
    private BulkWriter writer;
    private boolean replacingFirstBatch;
    private long added;
    private long base;
    private Committed committed = Committed.NONE;

    Bulk(String table, boolean resumed) {
      this.table = table;
      this.replacingFirstBatch = resumed && mode == EntityWriter.Mode.INSERT;
      this.writer = writer(replacingFirstBatch ? BulkWriteOptions.Mode.REPLACE : bulkMode());
    }

    private BulkWriter writer(BulkWriteOptions.Mode bulkMode) {
      return tables.bulkWriter(
          table,
          BulkWriteOptions.defaults()
              .withMode(bulkMode)
              .withKeepTimestamps(keepTimestamps)
              .withPipelined(true)
              .withListener((total, last) -> committed = new Committed(base + total, last)));
    }

    private BulkWriteOptions.Mode bulkMode() {
      return mode == EntityWriter.Mode.INSERT
          ? BulkWriteOptions.Mode.INSERT
          : BulkWriteOptions.Mode.REPLACE;
    }

    @Override
    public void add(TableEntity entity) {
      try {
        writer.add(entity);
      } catch (TableException e) {
        throw refused(entity, e);
      }
      added();
    }

    private void added() {
      added++;
      if (replacingFirstBatch && added >= REPLACED_AFTER_RESUME) {
        replacingFirstBatch = false;
        writer.close();
        base = added;
        writer = writer(bulkMode());
      }
    }

    @Override
    public void addRaw(RawEntity entity) {
      try {
        writer.addRaw(entity);
      } catch (TableException e) {
        throw refused(entity.keys(), e);
      }
      added();
    }

    @Override
    public Committed committed() {
      return committed;
    }

    @Override
    public void close() {
      try {
        writer.close();
      } catch (TableException e) {
        if (e.errorCode() == TableErrorCode.SERVER_BUSY) {
          throw unreachable(e);
        }
        throw new EntityWriter.WriteFailedException(
            "Cannot write to table " + table + ": " + e.errorCode().code() + ": " + e.getMessage(),
            e);
      }
    }

    /**
     * The database went away (dropped connections, a failover, a restart): nothing is wrong with
     * the data, and what was committed stays, so the answer is to resume, not to fix the input.
     */
    private CliException unreachable(TableException e) {
      return new CliException(
          ExitCode.DATABASE,
          "Cannot write to table "
              + table
              + ": the database cannot be reached ("
              + e.getMessage().replaceAll("\\.+$", "")
              + "). What was committed is kept: run the same command with --resume to continue.",
          e);
    }

    private RuntimeException refused(TableEntity entity, TableException e) {
      if (e.errorCode() == TableErrorCode.SERVER_BUSY) {
        return unreachable(e);
      }
      return new EntityWriter.WriteFailedException(
          "Cannot write entity (PartitionKey='"
              + entity.partitionKey()
              + "', RowKey='"
              + entity.rowKey()
              + "') to table "
              + table
              + ": "
              + e.errorCode().code()
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
