package dev.trestle.cli.transfer;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableEntity;
import dev.trestle.TableInfo;
import dev.trestle.TablePage;
import dev.trestle.TableQuery;
import dev.trestle.TableService;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** One side of a copy: a database through the library, or a Table endpoint over HTTP. */
public sealed interface TableEnd permits TableEnd.Database, TableEnd.Endpoint {

  /** Every table of the account, names as created. */
  List<String> tableNames();

  /** The table's name as created, matched case-insensitively, if it exists. */
  Optional<String> find(String table);

  /** Hands every entity of the table, in key order, to {@code each}. */
  void read(String table, Consumer<TableEntity> each);

  /** A sink into the table, created first when missing. */
  EntitySink writer(String table, EntityWriter.Mode mode);

  /** A database: transactions of up to 100 entities per partition. */
  record Database(TableService tables) implements TableEnd {
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
    public void read(String table, Consumer<TableEntity> each) {
      EntityQuery query = EntityQuery.all();
      while (true) {
        EntityPage page = tables.tableClient(table).query(query);
        page.entities().forEach(each);
        if (page.next().isEmpty()) {
          return;
        }
        query = query.withContinuation(page.next().get());
      }
    }

    @Override
    public EntitySink writer(String table, EntityWriter.Mode mode) {
      tables.createTableIfNotExists(table);
      return new EntityWriter(tables.tableClient(table), mode);
    }
  }

  /**
   * A Table endpoint (Azure, Azurite, Trestle): one {@code $batch} of up to 100 entities per
   * partition.
   */
  record Endpoint(RemoteTables remote) implements TableEnd {
    @Override
    public List<String> tableNames() {
      return remote.tableNames();
    }

    @Override
    public Optional<String> find(String table) {
      return remote.tableNames().stream().filter(name -> name.equalsIgnoreCase(table)).findFirst();
    }

    @Override
    public void read(String table, Consumer<TableEntity> each) {
      String continuation = null;
      do {
        RemoteTables.Page page = remote.page(table, continuation);
        page.entities().forEach(each);
        continuation = page.continuation().orElse(null);
      } while (continuation != null);
    }

    @Override
    public EntitySink writer(String table, EntityWriter.Mode mode) {
      remote.createTableIfNotExists(table);
      return new EntityWriter(new EndpointGroups(remote, table), mode);
    }
  }
}
