package dev.trestle.store.internal.codec;

import dev.trestle.RawEntity;
import dev.trestle.TableException;
import dev.trestle.model.EntityValidator;
import dev.trestle.model.TableLimits;

/**
 * What a same-kind copy checks of each stored row it passes through undecoded. The source's rows
 * need not be Trestle's: SQL can write any row (sql/README.md), and a copy must not carry into the
 * target what no Trestle write could store. The keys, the version kept and the document's length
 * are checked, each in time linear in what it reads; the document's inside is not parsed (that is
 * the cost the raw copy saves): a malformed one arrives as it was and fails the target's reads
 * naming the row, as it failed the source's.
 */
public final class CopiedRows {
  /**
   * No valid entity's stored document is longer: each byte the 1 MiB entity limit counts is at most
   * three characters of JSON (a two-byte character written as a {@code \\u} escape), and the type
   * tags and positions add far less than the fourth.
   */
  static final int MAX_DOCUMENT_CHARS = 4 * TableLimits.MAX_ENTITY_SIZE;

  private CopiedRows() {}

  /**
   * The row as a write of {@code table} may store it, or {@link MalformedRowException}
   * (InternalError) naming it; {@code keepsTicks}: its version is stored as it is.
   */
  public static void check(String table, RawEntity row, boolean keepsTicks) {
    try {
      EntityValidator.validateKey("PartitionKey", row.partitionKey());
      EntityValidator.validateKey("RowKey", row.rowKey());
    } catch (TableException e) {
      throw MalformedRowException.copied(
          table, row.partitionKey(), row.rowKey(), e.errorCode().code() + ": " + e.getMessage());
    }
    if (keepsTicks && !Ticks.inRange(row.ticks())) {
      throw MalformedRowException.copied(
          table,
          row.partitionKey(),
          row.rowKey(),
          "its ticks " + row.ticks() + " are outside the DateTime range 1601 to 9999");
    }
    if (row.document() == null || row.document().length() > MAX_DOCUMENT_CHARS) {
      throw MalformedRowException.copied(
          table,
          row.partitionKey(),
          row.rowKey(),
          row.document() == null
              ? "it has no properties document"
              : "its properties document of "
                  + row.document().length()
                  + " characters is longer than any entity of at most 1 MiB stores");
    }
  }
}
