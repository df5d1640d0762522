/**
 * The SQL implementation of the Table API: {@code SqlTableService} and {@code SqlTableClient}
 * validate a call and hand it to {@code read} or {@code write}. Private API. No compatibility
 * guarantees.
 */
package dev.trestle.store.internal;
