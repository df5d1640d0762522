/**
 * The database under the store: the jOOQ context and transactions ({@code Store}), the schema's
 * names, SQLState reading, and the contract each supported database implements ({@code
 * DatabaseType}, {@code Dialect}, page readers, the optional property index). Private API.
 */
package dev.trestle.store.internal.database;
