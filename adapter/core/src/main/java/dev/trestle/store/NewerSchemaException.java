package dev.trestle.store;

/**
 * A newer Trestle has migrated this database past every schema version this one carries (see {@link
 * SchemaMigrator#refuseNewerSchema}).
 */
public final class NewerSchemaException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  NewerSchemaException(String newest, String ours) {
    super(
        "This database's schema is at version "
            + newest
            + ", newer than this Trestle's ("
            + ours
            + "): a newer Trestle has upgraded it. Run that Trestle or a later one; an older one"
            + " would write without what the newer schema keeps in step.");
  }
}
