package dev.trestle.json.internal;

import dev.trestle.EntityQuery;
import dev.trestle.TableClient;

/**
 * A {@link TableClient} whose query pages can be written straight from their stored form: the
 * server asks for rows, an embedder still gets entities from {@link TableClient#query}.
 */
public interface RowQueries {
  /** The page {@link TableClient#query} returns, as rows that were never decoded. */
  EntityRowPage queryRows(EntityQuery query);
}
