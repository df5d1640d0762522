package dev.trestle.store.internal.ext;

import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.ext.PropertyOrder.SortKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The first {@code size} entities, in a {@link PropertyOrder}, of those offered after a resume
 * point: a bounded heap, so memory stays one page whatever the number of matches.
 */
final class PageSelection {
  record Entry(SortKey key, StoredEntity entity) {}

  private final PropertyOrder order;
  private final SortKey after;
  private final int size;
  private final PriorityQueue<Entry> worstFirst;

  PageSelection(PropertyOrder order, SortKey after, int size) {
    this.order = order;
    this.after = after;
    this.size = size;
    this.worstFirst = new PriorityQueue<>(Comparator.comparing(Entry::key, order).reversed());
  }

  void offer(StoredEntity entity) {
    SortKey key = order.keyOf(entity);
    if (after != null && order.compare(key, after) <= 0) {
      return; // on an earlier page
    }
    if (worstFirst.size() < size) {
      worstFirst.add(new Entry(key, entity));
    } else if (order.compare(key, worstFirst.peek().key()) < 0) {
      worstFirst.poll();
      worstFirst.add(new Entry(key, entity));
    }
  }

  /** The kept entities, first first. */
  List<Entry> inOrder() {
    List<Entry> entries = new ArrayList<>(worstFirst);
    entries.sort(Comparator.comparing(Entry::key, order));
    return entries;
  }
}
