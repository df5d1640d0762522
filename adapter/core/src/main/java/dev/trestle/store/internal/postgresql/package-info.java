/** PostgreSQL: its database type, dialect, cursor page reader, text encoding and optional GIN index. Private API. */
package dev.trestle.store.internal.postgresql;
