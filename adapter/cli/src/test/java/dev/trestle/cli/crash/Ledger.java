package dev.trestle.cli.crash;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the clients were told, per entity: the last acknowledged state (properties and ETag) and the
 * one write whose answer never came (sent when the server died). After a restart, each entity must
 * hold its acknowledged state, or the unanswered write's; each batch must be wholly there when
 * acknowledged, and never half there.
 */
final class Ledger {
  /**
   * One entity's acknowledged state (null: never acknowledged) and the write whose outcome is
   * unknown.
   */
  static final class Entry {
    final String partition;
    final String rowKey;
    Map<String, Integer> acked;
    String ackedEtag;
    Map<String, Integer> pending;

    /** The write whose outcome is unknown is a delete. */
    boolean pendingDelete;

    Entry(String partition, String rowKey) {
      this.partition = partition;
      this.rowKey = rowKey;
    }

    /** Whether a write of this entity went unanswered. */
    boolean unanswered() {
      return pending != null || pendingDelete;
    }
  }

  /** An acknowledged write of one entity: its new ETag, null for a delete. */
  record Ack(String partition, String rowKey, String etag) {}

  /** A 100-entity batch in a partition of its own: acknowledged, or sent without an answer. */
  enum BatchState {
    ACKNOWLEDGED,
    UNKNOWN
  }

  final Map<String, Map<String, Entry>> entities =
      new LinkedHashMap<>(); // partition -> row key -> entry
  final Map<String, BatchState> batches = new LinkedHashMap<>(); // partition -> state
  int acknowledgedWrites;

  /** The acknowledged single-entity writes in the order of their answers, until taken. */
  private final List<Ack> acks = new ArrayList<>();

  synchronized int acknowledgedWrites() {
    return acknowledgedWrites;
  }

  synchronized Entry entry(String partition, String rowKey) {
    return entities
        .computeIfAbsent(partition, p -> new LinkedHashMap<>())
        .computeIfAbsent(rowKey, r -> new Entry(partition, rowKey));
  }

  synchronized void acknowledged(Entry entry, Map<String, Integer> state, String etag) {
    entry.acked = state;
    entry.ackedEtag = etag;
    entry.pending = null;
    entry.pendingDelete = false;
    acks.add(new Ack(entry.partition, entry.rowKey, etag));
    acknowledgedWrites++;
  }

  /** The acknowledged writes since the last call. */
  synchronized List<Ack> takeAcks() {
    List<Ack> taken = List.copyOf(acks);
    acks.clear();
    return taken;
  }

  synchronized void refused(Entry entry) {
    entry.pending = null;
    entry.pendingDelete = false;
  }

  synchronized void batch(String partition, BatchState state) {
    batches.put(partition, state);
    if (state == BatchState.ACKNOWLEDGED) {
      acknowledgedWrites++;
    }
  }

  /** The merge of {@code addition} into the entry's acknowledged state. */
  static Map<String, Integer> merged(Entry entry, Map<String, Integer> addition) {
    Map<String, Integer> merged = new HashMap<>(entry.acked == null ? Map.of() : entry.acked);
    merged.putAll(addition);
    return merged;
  }
}
