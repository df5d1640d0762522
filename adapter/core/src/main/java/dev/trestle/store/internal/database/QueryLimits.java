package dev.trestle.store.internal.database;

import java.time.Duration;

/**
 * How a query pages: the service's time budget per page, and the key-range chunks a scan advances
 * by (the first chunk small, so key-range and partition queries finish in one step; later ones
 * larger, so long scans pay little per chunk). Tests shrink them to exercise chunk and budget
 * boundaries on small tables.
 */
public record QueryLimits(Duration budget, int firstChunk, int maxChunk) {
  public static final QueryLimits SERVICE = new QueryLimits(Duration.ofSeconds(5), 10_000, 400_000);
}
