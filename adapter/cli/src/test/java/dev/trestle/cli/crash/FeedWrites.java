package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@link EntityWrites} with deletes on a table whose change feed is on, and after each restart the
 * feed read on from where the previous check stopped: positions follow without a gap; each entity's
 * changes are exactly its acknowledged writes in order (same ETags, a delete as a delete), plus at
 * most the one write whose answer never came; a batch is 100 inserts at consecutive positions or
 * absent; and the feed replayed from the start gives every entity's stored ETag. One exception is
 * counted rather than failed: a write whose statement H2 ran twice shows an extra change one tick
 * before its acknowledged one (see {@link #withoutReruns}).
 */
final class FeedWrites extends EntityWrites {
  private String token;
  private long lastPosition;
  private int changes;
  private int reruns;

  /**
   * The ETag each entity has when the whole feed is replayed (absent: deleted or never written).
   */
  private final Map<String, String> replayed = new HashMap<>();

  /** The batches whose changes were read in an earlier cycle. */
  private final Set<String> batchesRead = new HashSet<>();

  FeedWrites(String table) {
    super(table, true);
  }

  @Override
  public void prepare(SignedHttp http) throws IOException, InterruptedException {
    super.prepare(http);
    SignedHttp.Reply enabled =
        http.json("PUT", "/" + table + "()/$changes?trestle-entities=true", null, null);
    assertThat(enabled.status()).as(enabled.body()).isEqualTo(200);
    token = enabled.json().get("next").asText();
    lastPosition = position(token);
  }

  @Override
  public Verifier.Findings verify(SignedHttp http) throws IOException, InterruptedException {
    Set<String> unanswered = new HashSet<>();
    ledger.entities.values().stream()
        .flatMap(rows -> rows.values().stream())
        .filter(Ledger.Entry::unanswered)
        .forEach(entry -> unanswered.add(entry.partition + "/" + entry.rowKey));
    Map<String, Ledger.BatchState> batches = new HashMap<>(ledger.batches);
    Map<String, List<String>> acknowledged = new LinkedHashMap<>();
    for (Ledger.Ack ack : ledger.takeAcks()) {
      acknowledged
          .computeIfAbsent(ack.partition() + "/" + ack.rowKey(), key -> new ArrayList<>())
          .add(ack.etag());
    }
    Verifier.Findings entities = super.verify(http);
    List<String> lost = new ArrayList<>(entities.lost());
    List<String> partial = new ArrayList<>(entities.partialBatches());

    Map<String, List<String>> written = new LinkedHashMap<>(); // key -> change ETags, null: delete
    Map<String, List<Long>> batchPositions = new HashMap<>();
    for (JsonNode change : newChanges(http)) {
      long position = position(change.get("position").asText());
      if (position != lastPosition + 1) {
        partial.add("feed position " + position + " follows " + lastPosition + ": a gap");
      }
      lastPosition = position;
      changes++;
      String partition = change.get("PartitionKey").asText();
      String key = partition + "/" + change.get("RowKey").asText();
      String kind = change.get("kind").asText();
      String etag = change.hasNonNull("etag") ? change.get("etag").asText() : null;
      if (kind.equals("delete")) {
        replayed.remove(key);
      } else {
        replayed.put(key, etag);
      }
      if (partition.startsWith("b")) {
        if (!kind.equals("insert")) {
          partial.add(key + ": a batch's entity changed by a " + kind);
        }
        batchPositions.computeIfAbsent(partition, p -> new ArrayList<>()).add(position);
      } else {
        written.computeIfAbsent(key, k -> new ArrayList<>()).add(etag);
      }
    }
    Set<String> keys = new HashSet<>(written.keySet());
    keys.addAll(acknowledged.keySet());
    for (String key : keys) {
      List<String> acks = acknowledged.getOrDefault(key, List.of());
      List<String> feed = withoutReruns(written.getOrDefault(key, List.of()), acks);
      boolean exact = feed.equals(acks);
      boolean plusUnanswered =
          unanswered.contains(key)
              && feed.size() == acks.size() + 1
              && feed.subList(0, acks.size()).equals(acks);
      if (!exact && !plusUnanswered) {
        (feed.size() < acks.size() ? lost : partial)
            .add(key + ": acknowledged writes " + acks + ", changes in the feed " + feed);
      }
    }
    for (var batch : batches.entrySet()) {
      List<Long> positions = batchPositions.getOrDefault(batch.getKey(), List.of());
      if (batchesRead.contains(batch.getKey())) {
        continue; // acknowledged in an earlier cycle, its changes read then
      }
      boolean whole = positions.size() == 100 && positions.get(99) - positions.get(0) == 99;
      if (!whole && !(positions.isEmpty() && batch.getValue() == Ledger.BatchState.UNKNOWN)) {
        (positions.isEmpty() ? lost : partial)
            .add(batch.getKey() + ": " + batch.getValue() + " batch, changes at " + positions);
      }
    }
    batchesRead.addAll(batchPositions.keySet());
    for (var rows : ledger.entities.values()) {
      for (Ledger.Entry entry : rows.values()) {
        String key = entry.partition + "/" + entry.rowKey;
        if (!Objects.equals(replayed.get(key), entry.ackedEtag)) {
          partial.add(
              key + ": stored ETag " + entry.ackedEtag + ", the feed's " + replayed.get(key));
        }
      }
    }
    return new Verifier.Findings(
        lost, partial, entities.checkedEntities(), entities.checkedBatches());
  }

  /**
   * The changes without those of a statement H2 ran twice within one write: a version one tick
   * before the next change of the entity, which no answer named. H2 (2.3) re-runs a statement that
   * met a concurrent update (here the feed trigger's lock of the feed row) without undoing its
   * first run, so the write's update and its change land twice, the second a tick after the first;
   * no acknowledged value is lost. Counted, so that the run's line shows how often.
   */
  private List<String> withoutReruns(List<String> feed, List<String> acks) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < feed.size(); i++) {
      String etag = feed.get(i);
      boolean rerun =
          etag != null
              && i + 1 < feed.size()
              && feed.get(i + 1) != null
              && !acks.contains(etag)
              && ticks(feed.get(i + 1)) - ticks(etag) == 1;
      if (rerun) {
        reruns++;
      } else {
        kept.add(etag);
      }
    }
    return kept;
  }

  /** An ETag's version in 100 ns ticks. */
  private static long ticks(String etag) {
    String text =
        java.net.URLDecoder.decode(
            etag.substring(etag.indexOf('\'') + 1, etag.lastIndexOf('\'')), StandardCharsets.UTF_8);
    java.time.Instant at = java.time.Instant.parse(text);
    return at.getEpochSecond() * 10_000_000L + at.getNano() / 100;
  }

  /** Every change after the token, the token then moved past them. */
  private List<JsonNode> newChanges(SignedHttp http) throws IOException, InterruptedException {
    List<JsonNode> read = new ArrayList<>();
    while (true) {
      SignedHttp.Reply reply =
          http.send(
              "GET",
              "/"
                  + table
                  + "()/$changes?$top=1000&trestle-from="
                  + URLEncoder.encode(token, StandardCharsets.UTF_8),
              null,
              null,
              null);
      if (reply.status() != 200) {
        throw new IllegalStateException(
            "The feed answered " + reply.status() + ": " + reply.body());
      }
      JsonNode page = reply.json();
      token = page.get("next").asText();
      if (page.get("changes").isEmpty()) {
        return read;
      }
      page.get("changes").forEach(read::add);
    }
  }

  private static long position(String token) {
    return Long.parseLong(token.substring(token.indexOf('.') + 1));
  }

  @Override
  public String tally() {
    return super.tally()
        + ", "
        + changes
        + " changes read, positions gapless, writes whose statement H2 ran twice "
        + reruns;
  }
}
