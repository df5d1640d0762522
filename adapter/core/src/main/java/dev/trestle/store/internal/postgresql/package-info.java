/**
 * PostgreSQL: its database type, dialect, cursor page reader and optional GIN index. Private API.
 */
package dev.trestle.store.internal.postgresql;
