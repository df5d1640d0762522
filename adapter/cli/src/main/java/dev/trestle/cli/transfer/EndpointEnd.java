package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A Table endpoint (Azure, Azurite, Trestle) over HTTP. Read in key order, resumed with a key
 * filter; written as {@code $batch} groups of up to 100 per partition, several in flight. An
 * endpoint sets every Timestamp itself: the ones read are not kept.
 */
public final class EndpointEnd implements End {
  private final RemoteTables remote;
  private final EntityWriter.Mode mode;
  private final int lanes;

  public EndpointEnd(RemoteTables remote, EntityWriter.Mode mode, int lanes) {
    this.remote = remote;
    this.mode = mode;
    this.lanes = lanes;
  }

  @Override
  public List<String> tableNames() {
    return remote.tableNames();
  }

  @Override
  public Optional<String> find(String table) {
    return remote.tableNames().stream().filter(name -> name.equalsIgnoreCase(table)).findFirst();
  }

  @Override
  public void read(String table, Position from, Predicate<TableEntity> each) {
    String filter = from.afterFilter();
    String continuation = null;
    do {
      RemoteTables.Page page = remote.page(table, filter, continuation);
      for (TableEntity entity : page.entities()) {
        if (!each.test(entity)) {
          return;
        }
      }
      continuation = page.continuation().orElse(null);
    } while (continuation != null);
  }

  @Override
  public Table open(String table, Position from) {
    remote.createTableIfNotExists(table);
    CommittedGroups groups = new CommittedGroups(new EndpointGroups(remote, table), lanes);
    EntityWriter writer = new EntityWriter(groups, mode);
    return new GroupTable(writer, groups);
  }

  @Override
  public boolean keepsTimestamps() {
    return false;
  }

  @Override
  public String describe() {
    return remote.endpoint();
  }

  /** A table written through {@link EntityWriter} groups. */
  static final class GroupTable implements Table {
    private final EntityWriter writer;
    private final CommittedGroups groups;

    GroupTable(EntityWriter writer, CommittedGroups groups) {
      this.writer = writer;
      this.groups = groups;
    }

    @Override
    public void add(TableEntity entity) {
      writer.add(entity);
    }

    /** Entities committed, and the last of them; moved only by {@link #add} or close. */
    @Override
    public Committed committed() {
      return new Committed(groups.committed(), groups.lastCommitted());
    }

    @Override
    public void close() {
      try {
        writer.close();
        groups.drain();
      } finally {
        groups.close();
      }
    }
  }
}
