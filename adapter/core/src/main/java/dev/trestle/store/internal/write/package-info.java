/**
 * Writes: one operation or an entity-group transaction, compare-and-set with checked row counts.
 * Private API.
 */
package dev.trestle.store.internal.write;
