package dev.trestle.store.internal.database;

import java.util.Set;

/**
 * The SQLStates one database uses, beyond the standard ones {@link SqlErrors} knows, for the failures the store
 * must tell apart.
 *
 * @param unavailable the database is shutting down, restarting or refusing connections
 * @param missingParent a foreign-key violation: the table row an entity refers to is gone
 * @param retryable the transaction lost a race (deadlock, lock timeout) and may simply be run again
 */
public record SqlStates(Set<String> unavailable, Set<String> missingParent, Set<String> retryable) {}
