/**
 * Trestle's embeddable library: Azure Table Storage semantics on a SQL database. Only the API
 * packages are exported; the {@code internal} packages are private API, with no compatibility
 * guarantees.
 *
 * <p>No JDBC driver is required: an embedder adds the one for its database (H2 or PostgreSQL), and
 * the store names no driver class (pgjdbc's prepare threshold is read reflectively).
 */
module dev.trestle {
  exports dev.trestle;
  exports dev.trestle.edm;
  exports dev.trestle.filter;
  exports dev.trestle.json;
  exports dev.trestle.model;
  exports dev.trestle.store;

  // The server writes query pages straight from their stored form (RowQueries); no one else may.
  exports dev.trestle.json.internal to
      dev.trestle.server;

  // H2 calls the Java functions that its migrations register (CREATE ALIAS ... FOR
  // '...H2Functions.compare') and the trigger of its change feeds (H2FeedTrigger).
  exports dev.trestle.store.internal.h2 to
      com.h2database;

  // Flyway reads the migrations as resources, which a named module hides unless their package is
  // open.
  opens dev.trestle.migrations.h2;
  opens dev.trestle.migrations.postgresql;

  requires transitive java.sql;
  requires transitive com.fasterxml.jackson.core; // EntityJson writes to a caller's JsonGenerator
  requires org.jooq;
  requires flyway.core; // Flyway's jars name no module: this is the name derived from the file name
  requires com.zaxxer.hikari;
  requires org.slf4j;
  requires static com.h2database; // the H2 change feed trigger implements org.h2.api.Trigger

  uses dev.trestle.store.internal.database.DatabaseType;

  provides dev.trestle.store.internal.database.DatabaseType with
      dev.trestle.store.internal.h2.H2DatabaseType,
      dev.trestle.store.internal.postgresql.PostgresDatabaseType;
}
