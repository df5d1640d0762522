/**
 * Writes: one operation, an entity-group or a relaxed transaction, compare-and-set with checked row
 * counts. Private API.
 */
package dev.trestle.store.internal.write;
