package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Sends groups to a {@link GroupTarget} and knows how far they are all committed. With more than
 * one lane, up to {@code 2 × lanes} groups are in flight at once (memory stays bounded by that many
 * groups); the commit mark moves when all sent groups have answered, since later groups may finish
 * before earlier ones.
 */
final class CommittedGroups implements GroupTarget, AutoCloseable {
  private final GroupTarget target;
  private final ExecutorService lanes;
  private final int window;
  private final Deque<Sent> inFlight = new ArrayDeque<>();
  private long sentEntities;
  private TableEntity lastSent;
  private long committed;
  private TableEntity lastCommitted;

  private record Sent(List<TableEntity> group, Future<?> answer) {}

  CommittedGroups(GroupTarget target, int lanes) {
    this.target = target;
    this.lanes =
        lanes > 1
            ? Executors.newFixedThreadPool(lanes, Thread.ofPlatform().daemon().factory())
            : null;
    this.window = 2 * lanes;
  }

  @Override
  public String tableName() {
    return target.tableName();
  }

  @Override
  public void write(List<TableEntity> group, EntityWriter.Mode mode) {
    sentEntities += group.size();
    lastSent = group.getLast();
    if (lanes == null) {
      target.write(group, mode);
      markCommitted();
      return;
    }
    inFlight.add(new Sent(group, lanes.submit(() -> target.write(group, mode))));
    if (inFlight.size() >= window) {
      drain();
    }
  }

  /** Waits for every group sent; the first refusal names its entity. */
  void drain() {
    RuntimeException failure = null;
    while (!inFlight.isEmpty()) {
      Sent sent = inFlight.poll();
      try {
        sent.answer().get();
      } catch (ExecutionException e) {
        if (failure == null) {
          failure = refused(sent.group(), e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for the endpoint", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
    markCommitted();
  }

  private RuntimeException refused(List<TableEntity> group, Throwable cause) {
    if (cause instanceof GroupRefusedException refused) {
      TableEntity entity = group.get(Math.min(Math.max(refused.index(), 0), group.size() - 1));
      return new EntityWriter.WriteFailedException(
          "Cannot write entity (PartitionKey='"
              + entity.partitionKey()
              + "', RowKey='"
              + entity.rowKey()
              + "') to table "
              + target.tableName()
              + ": "
              + refused.getMessage()
              + " (groups sent at the same time may have been written)",
          refused);
    }
    return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
  }

  private void markCommitted() {
    committed = sentEntities;
    lastCommitted = lastSent;
  }

  /** Entities of all groups committed so far. */
  long committed() {
    return committed;
  }

  TableEntity lastCommitted() {
    return lastCommitted;
  }

  @Override
  public void close() {
    if (lanes != null) {
      lanes.shutdownNow();
    }
  }
}
