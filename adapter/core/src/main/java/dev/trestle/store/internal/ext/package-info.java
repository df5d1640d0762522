/**
 * Trestle's opt-in extensions (count, exists, newest first, bulk deletes, relaxed transactions) as
 * SQL statements.
 */
package dev.trestle.store.internal.ext;
