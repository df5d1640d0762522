package dev.trestle.cli.crash;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads everything back through the restarted server and compares it with the {@link Ledger}: lost
 * writes (an acknowledged state missing or replaced by an older one) and partial batches are
 * listed; then the ledger takes what is stored as the new acknowledged state, for the next cycle.
 */
final class Verifier {
  record Stored(Map<String, Integer> properties, String etag) {}

  record Findings(
      List<String> lost, List<String> partialBatches, int checkedEntities, int checkedBatches) {}

  static Findings check(SignedHttp http, String table, Ledger ledger)
      throws IOException, InterruptedException {
    List<String> lost = new ArrayList<>();
    List<String> partial = new ArrayList<>();
    int entities = 0;
    for (var partition : ledger.entities.entrySet()) {
      Map<String, Stored> stored = read(http, table, partition.getKey());
      for (var row : partition.getValue().entrySet()) {
        Ledger.Entry entry = row.getValue();
        Stored found = stored.get(row.getKey());
        String key = partition.getKey() + "/" + row.getKey();
        boolean isAcked =
            entry.acked != null
                && found != null
                && found.properties().equals(entry.acked)
                && found.etag().equals(entry.ackedEtag);
        boolean isPending =
            entry.pending != null && found != null && found.properties().equals(entry.pending)
                || entry.pendingDelete && found == null;
        boolean neverAcked = entry.acked == null && found == null;
        if (!isAcked && !isPending && !neverAcked) {
          lost.add(
              key
                  + ": acknowledged "
                  + entry.acked
                  + " "
                  + entry.ackedEtag
                  + ", unanswered "
                  + entry.pending
                  + ", stored "
                  + found);
        }
        entry.acked = found == null ? null : found.properties();
        entry.ackedEtag = found == null ? null : found.etag();
        entry.pending = null;
        entry.pendingDelete = false;
        entities++;
      }
    }
    for (var batch : ledger.batches.entrySet()) {
      int count = read(http, table, batch.getKey()).size();
      if (count != 100 && !(count == 0 && batch.getValue() == Ledger.BatchState.UNKNOWN)) {
        (count == 0 ? lost : partial)
            .add(batch.getKey() + ": " + batch.getValue() + " batch, " + count + " of 100 stored");
      }
      batch.setValue(count == 100 ? Ledger.BatchState.ACKNOWLEDGED : Ledger.BatchState.UNKNOWN);
    }
    ledger.batches.values().removeIf(state -> state == Ledger.BatchState.UNKNOWN);
    return new Findings(lost, partial, entities, ledger.batches.size());
  }

  /** Every entity of one partition, following continuation tokens: integer properties. */
  static Map<String, Stored> read(SignedHttp http, String table, String partition)
      throws IOException, InterruptedException {
    Map<String, Stored> stored = new HashMap<>();
    for (var row : entities(http, table, partition).entrySet()) {
      JsonNode entity = row.getValue();
      Map<String, Integer> properties = new HashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> fields = entity.fields(); fields.hasNext(); ) {
        var field = fields.next();
        String name = field.getKey();
        if (!name.startsWith("odata.")
            && !name.contains("@")
            && !name.equals("PartitionKey")
            && !name.equals("RowKey")
            && !name.equals("Timestamp")) {
          properties.put(name, field.getValue().asInt());
        }
      }
      stored.put(row.getKey(), new Stored(properties, entity.get("odata.etag").asText()));
    }
    return stored;
  }

  /** Every entity of one partition as the server wrote it, by RowKey. */
  static Map<String, JsonNode> entities(SignedHttp http, String table, String partition)
      throws IOException, InterruptedException {
    Map<String, JsonNode> stored = new HashMap<>();
    String filter =
        "$filter="
            + URLEncoder.encode("PartitionKey eq '" + partition + "'", StandardCharsets.UTF_8)
                .replace("+", "%20");
    String next = "";
    do {
      SignedHttp.Reply reply =
          http.send("GET", "/" + table + "()?" + filter + next, null, null, null);
      if (reply.status() != 200) {
        throw new IllegalStateException(
            "Query of " + partition + " answered " + reply.status() + ": " + reply.body());
      }
      for (JsonNode entity : reply.json().get("value")) {
        stored.put(entity.get("RowKey").asText(), entity);
      }
      next = reply.continuation();
    } while (!next.isEmpty());
    return stored;
  }
}
