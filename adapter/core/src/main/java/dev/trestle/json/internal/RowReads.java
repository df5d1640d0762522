package dev.trestle.json.internal;

import java.util.List;

/**
 * A {@code TableClient} whose point reads can be written straight from the stored form: the server
 * asks for a row, an embedder still gets an entity from {@code TableClient#get}.
 */
public interface RowReads {
  /** The entity {@code TableClient#get} returns, as a row that was never decoded. */
  EntityRow getRow(String partitionKey, String rowKey, List<String> select);
}
