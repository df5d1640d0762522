package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import java.util.List;

/**
 * Groups into a table of a Table endpoint: one {@code $batch} per group. A group whose request
 * would pass the service's 4 MiB limit (the writer's size estimate cannot know every JSON escape)
 * goes in two halves.
 */
final class EndpointGroups implements GroupTarget {
  private final RemoteTables remote;
  private final String table;

  EndpointGroups(RemoteTables remote, String table) {
    this.remote = remote;
    this.table = table;
  }

  @Override
  public String tableName() {
    return table;
  }

  @Override
  public void write(List<TableEntity> group, EntityWriter.Mode mode) {
    write(group, mode, 0);
  }

  /** {@code offset}: how many entities of the whole group precede this part (all written). */
  private void write(List<TableEntity> part, EntityWriter.Mode mode, int offset) {
    try {
      if (part.size() == 1) {
        remote.write(table, part.getFirst(), mode);
      } else {
        remote.writeBatch(table, part, mode);
      }
    } catch (RemoteTables.BatchRefusedException e) {
      throw new GroupRefusedException(offset + e.index(), offset, e.getMessage(), e);
    } catch (RemoteTables.RemoteException e) {
      throw new GroupRefusedException(offset, offset, e.getMessage(), e);
    } catch (
        RemoteTables.BatchTooLargeException tooLarge) { // only ever thrown for two or more entities
      int half = part.size() / 2;
      write(part.subList(0, half), mode, offset);
      write(part.subList(half, part.size()), mode, offset + half);
    }
  }
}
